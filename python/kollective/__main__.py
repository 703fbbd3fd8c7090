"""`python -m kollective plot RESULTS_DIR [RESULTS_DIR ...] [--out DIR] [--format png,svg] [--tag TAG]`.

Draws the figures of the recorded result tables (see kollective.plot) and prints each file
written. Exit status 0 on success, 2 on a usage error, a missing folder or a folder without a
plottable table. Matplotlib is imported only when a command runs, so importing this module needs
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
    return 2


if __name__ == "__main__":
    sys.exit(main())
