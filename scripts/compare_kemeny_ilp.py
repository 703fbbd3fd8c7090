#!/usr/bin/env python3
"""Solves Kemeny exactly as a plain ILP with CBC, as a yardstick for Kollective's LP path.

For each pairwise-count CSV (Kollective's `write: {pairwise: true}` of a Schulze run: a header row
of names, a name column, cell [i][j] = voters preferring i to j, .5 allowed) the ILP is

    binary x_ij for i < j (1: i before j),
    minimise sum_{i<j} w[j][i] x_ij + w[i][j] (1 - x_ij),

with the transitivity (triangle) constraints x_ij + x_jk - x_ik <= 1 and x_ik <= x_ij + x_jk for
i < j < k added lazily: solve, add the triangles the integer solution violates, solve again,
until it violates none. CBC (PuLP's bundled binary) runs with one thread; the time limit covers
all rounds of an instance. One CSV line per instance goes to stdout:

    file,n,optimum,seconds,rounds,constraints,status

optimum is the Kemeny distance in votes (empty unless status is `optimal`); seconds is the wall
time of all rounds (model building and CBC); constraints counts the triangle inequalities added.
Per-round progress goes to stderr.

Setup and use (PuLP from PyPI, in a venv):
    python3 -m venv /tmp/ilp-venv && /tmp/ilp-venv/bin/pip install pulp
    /tmp/ilp-venv/bin/python scripts/compare_kemeny_ilp.py [--time-limit 500] PAIRWISE.csv...
"""

import argparse
import csv
import itertools
import sys
import time

import pulp


def read_pairwise(path):
    """Returns the pairwise-count matrix of a CSV with a header row and a name column."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    n = len(rows[0]) - 1
    weights = [[float(cell) for cell in row[1:]] for row in rows[1:]]
    if len(weights) != n or any(len(row) != n for row in weights):
        sys.exit(f"{path}: expected a {n} x {n} matrix under the header")
    return weights


def build_model(weights):
    """The ILP without triangle constraints; returns the problem and x[(i, j)] for i < j."""
    n = len(weights)
    problem = pulp.LpProblem("kemeny", pulp.LpMinimize)
    x = {(i, j): pulp.LpVariable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i, j in itertools.combinations(range(n), 2)}
    problem += pulp.lpSum(weights[j][i] * x[i, j] + weights[i][j] * (1 - x[i, j])
                          for i, j in x)
    return problem, x


def before(x):
    """The integer solution as a dict: (i, j) -> True when i is placed before j."""
    return {pair: var.value() > 0.5 for pair, var in x.items()}


def violated_triangles(order, n):
    """Triples i < j < k whose order is a cycle, with the constraint each one violates."""
    cuts = []
    for i, j, k in itertools.combinations(range(n), 3):
        ij, jk, ik = order[i, j], order[j, k], order[i, k]
        if ij and jk and not ik:
            cuts.append(((i, j, k), "upper"))   # x_ij + x_jk - x_ik <= 1
        elif not ij and not jk and ik:
            cuts.append(((i, j, k), "lower"))   # x_ik <= x_ij + x_jk
    return cuts


def add_triangle(problem, x, triangle, kind):
    """Adds one transitivity constraint of the triple i < j < k."""
    i, j, k = triangle
    if kind == "upper":
        problem += x[i, j] + x[j, k] - x[i, k] <= 1
    else:
        problem += x[i, k] <= x[i, j] + x[j, k]


def distance(weights, order):
    """Kemeny distance (votes) of a transitive order: voters disagreeing with each pair."""
    return sum(weights[j][i] if ij else weights[i][j] for (i, j), ij in order.items())


def votes_text(votes):
    """A whole or half vote count, written so that it reads back exactly."""
    return str(int(votes)) if votes == int(votes) else f"{votes:.1f}"


def solve_round(problem, seconds_left):
    """One CBC solve; True when CBC proved this round's model optimal."""
    solver = pulp.PULP_CBC_CMD(msg=False, threads=1, timeLimit=max(1, round(seconds_left)))
    problem.solve(solver)
    return problem.sol_status == pulp.LpSolutionOptimal


def solve_kemeny(weights, time_limit):
    """Lazy-constraint loop; returns (optimum or None, seconds, rounds, constraints, status)."""
    n = len(weights)
    start = time.perf_counter()
    problem, x = build_model(weights)
    rounds = constraints = 0
    while True:
        seconds_left = time_limit - (time.perf_counter() - start)
        if seconds_left <= 0:
            return None, time.perf_counter() - start, rounds, constraints, "time limit"
        rounds += 1
        proved = solve_round(problem, seconds_left)
        if not proved:
            return None, time.perf_counter() - start, rounds, constraints, "time limit"
        order = before(x)
        cuts = violated_triangles(order, n)
        print(f"  round {rounds}: bound {pulp.value(problem.objective):g}, {len(cuts)} violated "
              f"triangles, {time.perf_counter() - start:.1f} s", file=sys.stderr)
        if not cuts:
            optimum = distance(weights, order)
            return optimum, time.perf_counter() - start, rounds, constraints, "optimal"
        for triangle, kind in cuts:
            add_triangle(problem, x, triangle, kind)
        constraints += len(cuts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairwise", nargs="+", help="pairwise-count CSV files")
    parser.add_argument("--time-limit", type=float, default=500.0,
                        help="seconds per instance, all rounds together (default 500)")
    args = parser.parse_args()
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["file", "n", "optimum", "seconds", "rounds", "constraints", "status"])
    for path in args.pairwise:
        weights = read_pairwise(path)
        print(f"{path}: n = {len(weights)}", file=sys.stderr)
        optimum, seconds, rounds, constraints, status = solve_kemeny(weights, args.time_limit)
        writer.writerow([path, len(weights), "" if optimum is None else votes_text(optimum),
                         f"{seconds:.2f}", rounds, constraints, status])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
