#!/usr/bin/env python3
"""Best known LOP values of RandA1 and xLOLIB2, checked against the instance files used here.

The values and rankings come from BKS.zip of the repository carlossegurag/LOP_MA-EDM (Lugo,
Segura, Miranda, "A diversity-aware memetic algorithm for the linear ordering problem", Memetic
Computing 2022): one file per instance holding a ranking ("Individuo:", 0-based) and its value
("Costo:"). The instance files are those of mrpritt/lop-instances (LOLIB's format, original
matrices). Where an instance file is given, the ranking is evaluated on it: `on_our_copy` is the
ranking's value there (equal to `best_known` where the copy reproduces it), empty where the file
is not at hand.

    python3 perf/lolib/best_known.py --bks BKS.zip --instances FOLDER > perf/lolib/best_known.csv

FOLDER holds RandA1/ and xLOLIB2/ (files named as in mrpritt/lop-instances: t1d500.07,
be75np_500); files missing there are listed with `on_our_copy` empty. RandA1's copies end in
three damaged entries (perf/results/kemeny/cpu_anytime/README.md): there entries above 10^6 are
read as 0, so a ranking's value on such a copy may fall short of the source's by up to a few
hundred. The files are read by check_lolib.py's parser and valued by lop_peers.py's
ordering_value, as the peers' runs read and value them.
"""
import argparse
import csv
import os
import re
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout by the imports below
sys.path.insert(0, os.path.dirname(HERE))
from check_lolib import parse_lolib  # noqa: E402  (this folder)
from lop_peers import ordering_value  # noqa: E402  (perf/)


def read_matrix(path, repair):
    """n and the rows of a LOLIB file; with `repair`, entries above 10^6 (RandA1's damage) as 0."""
    n, rows, _ = parse_lolib(path)
    if repair:
        rows = [[0 if c > 10**6 else c for c in row] for row in rows]
    return n, rows


def instance_name(collection, entry):
    name = entry[2:] if entry.startswith("N-") else entry
    if collection == "xLOLIB2":
        return re.sub(r"_\d+$", "", name)  # the source adds the run that found it
    stem, number = name.rsplit(".", 1)
    return f"{stem}.{int(number):02d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bks", required=True, help="BKS.zip of carlossegurag/LOP_MA-EDM")
    parser.add_argument("--instances", help="folder with RandA1/ and xLOLIB2/ instance files")
    args = parser.parse_args()
    archive = zipfile.ZipFile(args.bks)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["collection", "instance", "n", "best_known", "on_our_copy"])
    rows = []
    for entry in archive.namelist():
        parts = entry.split("/")
        if len(parts) != 3 or parts[0] != "BKS" or parts[1] not in ("RandA1", "xLOLIB2"):
            continue
        if not parts[2].startswith("N-"):
            continue
        text = archive.read(entry).decode("latin-1")
        body = text.split("Individuo:")[1].split("Costo")[0]
        ranking = [int(t) for t in body.replace(",", " ").split()]
        value = int(re.search(r"Costo:\s*(-?\d+)", text).group(1))
        name = instance_name(parts[1], parts[2])
        on_our_copy = ""
        path = os.path.join(args.instances, parts[1], name) if args.instances else None
        if path and os.path.exists(path):
            n, matrix = read_matrix(path, repair=parts[1] == "RandA1")
            if sorted(ranking) != list(range(n)):
                sys.exit(f"{entry}: not a ranking of the {n} alternatives of {path}")
            on_our_copy = ordering_value(matrix, ranking)
        rows.append([parts[1], name, len(ranking), value, on_our_copy])
    for row in sorted(rows):
        out.writerow(row)


if __name__ == "__main__":
    main()
