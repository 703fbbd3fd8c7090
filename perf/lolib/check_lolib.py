#!/usr/bin/env python3
"""Check Kollective's exact Kemeny/LOP solver against the published LOLIB optima.

For every instance file in --instances whose name is listed in optima.csv:
  1. parse it as LOLIB format (n, then n*n integers; one non-numeric title line before n is
     allowed, as in the Heidelberg .mat files) and check n against optima.csv;
  2. write one YAML config with one Kemeny run per instance (input kind `lolib:`);
  3. run `<kollective> run <config> --out <DIR>`;
  4. read each run's result table (<DIR>/<run name>.csv) and compare its `lop_value`
     (the LOP objective of the best ranking) with the published optimum.

Prints one line per instance (name, n, optimum, lop_value, exact, seconds, status) and exits
non-zero when any instance is MISMATCH, UNPROVEN, or failed to parse or run.

  OK        lop_value == optimum and exact is true
  UNPROVEN  exact is false and lop_value <= optimum (the optimum may or may not have been reached)
  MISMATCH  lop_value != optimum with exact true, or lop_value > optimum
  ERROR     the file did not parse, or the run wrote no table / no lop_value

--convert-only DIR needs no solver: it parses every selected file, writes it to DIR in plain
LOLIB form (n on the first line, one matrix row per line, no title line) with DIR/summary.csv,
and prints n, the sum of all off-diagonal entries and two trivial bounds on the optimum
(sum over pairs of min(a_ij, a_ji) <= optimum <= sum over pairs of max(a_ij, a_ji)).

Standard library only (Python 3.8+).
"""

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

KNOWN_EXTENSIONS = (".mat", ".lop", ".txt", ".dat")
REPO_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
INTEGER = re.compile(r"[+-]?\d+\Z")


class LolibError(Exception):
    pass


def parse_lolib(path):
    """Returns (n, rows, notes). rows: n lists of n ints. Raises LolibError if not LOLIB format."""
    with open(path, "r", encoding="latin-1") as f:
        lines = f.read().splitlines()
    notes = []
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first == len(lines):
        raise LolibError("empty file")
    # One title line is allowed: a first non-blank line holding anything but integers.
    if not all(INTEGER.match(t) for t in lines[first].split()):
        notes.append("title line: " + lines[first].strip()[:60])
        first += 1
    tokens = " ".join(lines[first:]).split()
    if not tokens or not INTEGER.match(tokens[0]):
        raise LolibError("expected n, found %r" % (tokens[0] if tokens else "end of file"))
    n = int(tokens[0])
    if n < 1:
        raise LolibError("n = %d" % n)
    body = tokens[1:1 + n * n]
    if len(body) < n * n:
        raise LolibError("n = %d needs %d entries, found %d" % (n, n * n, len(body)))
    for k, t in enumerate(body):
        if not INTEGER.match(t):
            raise LolibError("entry %d (row %d, column %d) is %r, not an integer" % (k, k // n + 1, k % n + 1, t))
    rest = tokens[1 + n * n:]
    if rest:
        # The Heidelberg be75np/be75oi/be75tot .mat files repeat their title after the matrix.
        notes.append("%d trailing token(s) after the matrix ignored: %s" % (len(rest), " ".join(rest[:8])))
    values = [int(t) for t in body]
    return n, [values[i * n:(i + 1) * n] for i in range(n)], notes


def matrix_sums(n, rows):
    off = sum(rows[i][j] for i in range(n) for j in range(n) if i != j)
    low = sum(min(rows[i][j], rows[j][i]) for i in range(n) for j in range(i + 1, n))
    high = sum(max(rows[i][j], rows[j][i]) for i in range(n) for j in range(i + 1, n))
    return off, low, high


def run_name(instance):
    return re.sub(r"[^A-Za-z0-9_]", "_", instance)


def read_optima(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        need = {"set", "instance", "n", "optimum", "source"}
        if not need.issubset(reader.fieldnames or []):
            sys.exit("%s: header must hold %s" % (path, ",".join(sorted(need))))
        optima = {}
        for row in reader:
            name = row["instance"]
            if name in optima:
                sys.exit("%s: instance %s listed twice" % (path, name))
            optima[name] = {"set": row["set"], "n": int(row["n"]), "optimum": int(row["optimum"])}
    return optima


def find_instances(directory, optima, only):
    """Maps instance name -> absolute path for the files of `directory` named in optima.csv."""
    found = {}
    for entry in sorted(os.listdir(directory)):
        path = os.path.join(directory, entry)
        if not os.path.isfile(path):
            continue
        name = entry
        if name not in optima:
            for ext in KNOWN_EXTENSIONS:
                if name.endswith(ext) and name[: -len(ext)] in optima:
                    name = name[: -len(ext)]
                    break
        if name not in optima:
            continue
        if only and name not in only and run_name(name) not in only:
            continue
        if name in found:
            sys.exit("two files in %s are instance %s: %s and %s" % (directory, name, found[name], path))
        found[name] = os.path.abspath(path)
    missing = []
    if only:
        matched = set(found) | {run_name(k) for k in found}
        missing = sorted(w for w in only if w not in matched)
        for name in missing:
            print("MISSING %s: no such file in %s, or not in optima.csv" % (name, directory))
    return found, missing


def check_files(found, optima):
    """Parses every file; returns (parsed, errors). parsed: name -> (n, rows, notes)."""
    parsed, errors = {}, {}
    for name, path in found.items():
        try:
            n, rows, notes = parse_lolib(path)
        except (LolibError, OSError, UnicodeDecodeError) as e:
            errors[name] = str(e)
            continue
        if n != optima[name]["n"]:
            errors[name] = "n = %d in the file, %d in optima.csv" % (n, optima[name]["n"])
            continue
        parsed[name] = (n, rows, notes)
    return parsed, errors


def write_plain(path, n, rows):
    with open(path, "w") as f:
        f.write("%d\n" % n)
        for row in rows:
            f.write(" ".join(str(v) for v in row) + "\n")


def convert_only(args, optima, found):
    parsed, errors = check_files(found, optima)
    os.makedirs(args.convert_only, exist_ok=True)
    failures = 0
    summary = []
    print("%-14s %4s %16s %16s %16s %16s  %s" % ("instance", "n", "offdiag_sum", "pair_min_sum", "optimum",
                                                 "pair_max_sum", "check"))
    for name in sorted(found):
        if name in errors:
            failures += 1
            print("%-14s %4s %16s %16s %16s %16s  ERROR %s" % (name, "-", "-", "-", optima[name]["optimum"], "-",
                                                               errors[name]))
            continue
        n, rows, notes = parsed[name]
        off, low, high = matrix_sums(n, rows)
        opt = optima[name]["optimum"]
        ok = low <= opt <= high
        failures += 0 if ok else 1
        write_plain(os.path.join(args.convert_only, name), n, rows)
        summary.append([name, optima[name]["set"], n, off, low, opt, high, "ok" if ok else "OUT_OF_BOUNDS"])
        print("%-14s %4d %16d %16d %16d %16d  %s%s" % (name, n, off, low, opt, high, "ok" if ok else "OUT_OF_BOUNDS",
                                                       ("  (" + "; ".join(notes) + ")") if notes else ""))
    with open(os.path.join(args.convert_only, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["instance", "set", "n", "offdiag_sum", "pair_min_sum", "optimum", "pair_max_sum", "check"])
        w.writerows(summary)
    print("%d file(s) written to %s, %d problem(s)" % (len(summary), args.convert_only, failures))
    return 1 if failures else 0


def write_config(path, entries, out_dir, time_limit, certificates=False, count=True):
    """entries: list of (run name, absolute input path)."""
    limit = str(int(time_limit)) if time_limit == int(time_limit) else repr(time_limit)
    lines = [
        "# Written by perf/lolib/check_lolib.py: LOLIB instances against their published optima.",
        "title: LOLIB check",
        "output: " + json.dumps(out_dir),
        "keep_going: true",
        "runs:",
    ]
    for name, instance_path in entries:
        lines += [
            "  - name: " + name,
            "    algorithm: kemeny",
            "    input: {lolib: " + json.dumps(instance_path) + "}",
            "    options: {method: auto, time_limit: " + limit + ", count: " + ("true" if count else "false") + "}",
            "    repetitions: 1",
            "    warmup: 0",
            "    verify: false",
            "    write: {rankings: false, certificate: %s}" % ("true" if certificates else "false"),
        ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def read_result(out_dir, name):
    """Returns (row dict or None, message)."""
    path = os.path.join(out_dir, name + ".csv")
    if not os.path.exists(path):
        return None, "no result table " + path
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None, "empty result table " + path
    if "lop_value" not in rows[0]:
        return None, "no lop_value column in " + path + " (a Kollective build without it?)"
    return rows[-1], ""


def status_of(optimum, lop_value, exact):
    if lop_value > optimum:
        return "MISMATCH"
    if exact:
        return "OK" if lop_value == optimum else "MISMATCH"
    return "UNPROVEN"


def to_int(text):
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        value = float(text)  # "264940.0" or "2.6494e+05" from a table that writes doubles
        if value != int(value):
            raise
        return int(value)


def check_certificate(instance, certificate):
    """Checks a certificate with python/kollective/certificate.py's check(), in this process (the
    command line adds the interpreter's start); returns its verdict and seconds."""
    sys.path.insert(0, os.path.join(REPO_ROOT, "python", "kollective"))
    import certificate as checker  # the standalone module (standard library only)

    with open(certificate, encoding="utf-8") as f:
        data = json.load(f)
    started = time.perf_counter()
    try:
        verdict = checker.check(instance, data)
    except (checker.Rejected, checker.NotCertified, checker.Unreadable) as e:
        verdict = "%s: %s" % (type(e).__name__, e)
    seconds = time.perf_counter() - started
    return "%s (check %.4f s)" % ("certified" if verdict.startswith("certified") else verdict, seconds)


def check(args, optima, found):
    kollective = args.kollective
    if not os.path.exists(kollective) and not os.path.isabs(kollective):
        alt = os.path.join(REPO_ROOT, kollective)
        if os.path.exists(alt):
            kollective = alt
    if not os.path.exists(kollective):
        sys.exit("kollective not found: %s (build it, or pass --kollective)" % args.kollective)
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)

    parsed, errors = check_files(found, optima)
    names = {}
    entries = []
    for name in sorted(parsed):
        rn = run_name(name)
        if rn in names:
            sys.exit("instances %s and %s give the same run name %s" % (names[rn], name, rn))
        names[rn] = name
        n, rows, notes = parsed[name]
        path = found[name]
        if args.plain:
            plain_dir = os.path.join(out_dir, "instances")
            os.makedirs(plain_dir, exist_ok=True)
            path = os.path.join(plain_dir, name)
            write_plain(path, n, rows)
        elif notes:
            print("note: %s: %s" % (name, "; ".join(notes)), file=sys.stderr)
        entries.append((rn, path))

    results = []
    if entries:
        config = os.path.join(out_dir, "lolib_check.yaml")
        write_config(config, entries, out_dir, args.time_limit, args.certificates, not args.no_count)
        command = [kollective, "run", config, "--out", out_dir]
        print("running: " + " ".join(command), file=sys.stderr)
        started = time.time()
        proc = subprocess.run(command)
        print("kollective exited with %d after %.1f s" % (proc.returncode, time.time() - started), file=sys.stderr)

    bad = 0
    header = "%-14s %4s %14s %14s %6s %10s  %s" % ("instance", "n", "optimum", "lop_value", "exact", "seconds", "status")
    print(header)
    for name in sorted(found):
        opt = optima[name]["optimum"]
        n = optima[name]["n"]
        if name in errors:
            bad += 1
            print("%-14s %4d %14d %14s %6s %10s  ERROR (%s)" % (name, n, opt, "-", "-", "-", errors[name]))
            results.append([name, n, opt, "", "", "", "ERROR", errors[name]])
            continue
        row, message = read_result(out_dir, run_name(name))
        if row is None:
            bad += 1
            print("%-14s %4d %14d %14s %6s %10s  ERROR (%s)" % (name, n, opt, "-", "-", "-", message))
            results.append([name, n, opt, "", "", "", "ERROR", message])
            continue
        try:
            value = to_int(row["lop_value"])
        except (ValueError, KeyError):
            bad += 1
            print("%-14s %4d %14d %14s %6s %10s  ERROR (lop_value %r)" % (name, n, opt, "-", "-", "-",
                                                                       row.get("lop_value")))
            results.append([name, n, opt, row.get("lop_value", ""), "", "", "ERROR", "bad lop_value"])
            continue
        exact = row.get("exact", "").strip().lower() == "true"
        seconds = row.get("seconds", "")
        status = status_of(opt, value, exact)
        note = ""
        if args.certificates and status == "OK":
            note = check_certificate(dict(entries)[run_name(name)], os.path.join(out_dir, run_name(name) + "_certificate.json"))
            status = "OK" if note.startswith("certified") else "UNCERTIFIED"
        bad += status != "OK"
        print("%-14s %4d %14d %14d %6s %10s  %s %s" % (name, n, opt, value, "true" if exact else "false", seconds, status, note))
        results.append([name, n, opt, value, "true" if exact else "false", seconds, status, note])

    with open(os.path.join(out_dir, "lolib_check.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["instance", "n", "optimum", "lop_value", "exact", "seconds", "status", "note"])
        w.writerows(results)
    ok = len(results) - bad
    print("%d of %d OK; summary in %s" % (ok, len(results), os.path.join(out_dir, "lolib_check.csv")))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--instances", required=True, help="folder holding LOLIB-format files (names as in optima.csv)")
    p.add_argument("--optima", default=os.path.join(REPO_ROOT, "perf", "lolib", "optima.csv"),
                   help="optima table (default perf/lolib/optima.csv)")
    p.add_argument("--kollective", default="build/openmp/drivers/kollective", help="the kollective driver binary")
    p.add_argument("--out", help="output folder for the config and the result tables (required unless --convert-only)")
    p.add_argument("--time-limit", type=float, default=600.0,
                   help="branch-and-cut seconds per component (Kemeny option time_limit, default 600)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="check only these instances (names or run names)")
    p.add_argument("--no-count", action="store_true",
                   help="prove one optimum without listing and counting the others (Kemeny option count: false)")
    p.add_argument("--certificates", action="store_true",
                   help="write each result's certificate and check it with python/kollective/certificate.py")
    p.add_argument("--plain", action="store_true",
                   help="give the solver plain copies (title line and trailing text removed) written to OUT/instances")
    p.add_argument("--convert-only", metavar="DIR",
                   help="no solver: parse, write plain LOLIB copies and summary.csv to DIR, print n and sums")
    args = p.parse_args()
    if not (args.time_limit > 0):
        p.error("--time-limit must be positive")
    if not args.convert_only and not args.out:
        p.error("--out is required (or use --convert-only DIR)")
    if not os.path.isdir(args.instances):
        p.error("--instances: not a folder: " + args.instances)

    optima = read_optima(args.optima)
    found, missing = find_instances(args.instances, optima, set(args.only or []))
    if not found:
        sys.exit("no file in %s is named like an instance of %s" % (args.instances, args.optima))
    status = convert_only(args, optima, found) if args.convert_only else check(args, optima, found)
    return 1 if missing else status


if __name__ == "__main__":
    sys.exit(main())
