"""`python -m kollective plot RESULTS_DIR [RESULTS_DIR ...] [--out DIR] [--format png,svg] [--tag TAG]`
`python -m kollective check-certificate INPUT CERTIFICATE`

plot draws the figures of the recorded result tables (see kollective.plot) and prints each file
written. Exit status 0 on success, 2 on a usage error, a missing folder or a folder without a
plottable table. check-certificate checks a Kemeny certificate against its input with the
standalone checker (kollective.certificate; docs/certificates.md): exit status 0 certified, 1
rejected, 2 unreadable, 3 not certified. Matplotlib is imported only when a command runs, so importing this module needs
no more than the package itself does.
"""

import argparse
import sys


def _parser():
    parser = argparse.ArgumentParser(prog="kollective", description="Kollective's Python tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    plot = commands.add_parser(
        "plot", help="draw time and throughput against problem size from recorded result tables",
        description="Draws, per algorithm, time and throughput against problem size from every result "
                    "table (CSV) below the given folders; runs of several folders share figures.")
    plot.add_argument("results", nargs="+", metavar="RESULTS_DIR",
                      help="a folder of result tables (searched recursively), or a result CSV file")
    plot.add_argument("--out", metavar="DIR", help="where to write the figures (default: RESULTS_DIR/plots)")
    plot.add_argument("--format", default="png", metavar="FORMATS",
                      help="comma-separated: png, svg, pdf (default: png)")
    plot.add_argument("--tag", default="", help="insert into file names: <algorithm>_<tag>_<time|throughput>")
    check = commands.add_parser(
        "check-certificate", help="check a Kemeny certificate against its input (integers only)",
        description="Checks that a Kemeny certificate proves its ranking optimal for the input, with the "
                    "standalone checker (docs/certificates.md). Exit status: 0 certified, 1 rejected, "
                    "2 unreadable, 3 not certified.")
    check.add_argument("input", metavar="INPUT", help="the run's input (PrefLib, pairwise CSV or LOLIB)")
    check.add_argument("certificate", metavar="CERTIFICATE", help="the run's <name>_certificate.json")
    return parser


def _plot(args):
    from kollective import plot  # here, so that `import kollective.__main__` does not load matplotlib

    try:
        written = plot.plot_results(args.results, out=args.out, formats=args.format, tag=args.tag)
    except ValueError as error:
        print(f"kollective plot: error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


def main(argv=None):
    """Runs the command line; returns the exit status (argparse exits 2 itself on bad usage)."""
    args = _parser().parse_args(argv)
    if args.command == "plot":
        return _plot(args)
    if args.command == "check-certificate":
        from kollective import certificate

        return certificate.main(["check-certificate", args.input, args.certificate])
    return 2


if __name__ == "__main__":
    sys.exit(main())
