"""Why IP's pruning fails on some value distributions (issue #53): for each distribution at n
agents, the optimum, and how much of the search space IP's subspace bounds leave open even with
the optimum as incumbent (the best case: a subspace is pruned when its bound UB_I, per size the sum
of as many largest values as parts, is not above the optimum; CoalitionSubspaces.hpp).

    PYTHONPATH=build/openmp/python python3 perf/csg_bounds.py [--n 22] [--seed 7] [--models "uniform ..."]

Prints one row per distribution: the subspaces (integer partitions of n) and the share of all
coalition structures in them that the bound cannot prune, and the bound's excess over the optimum in
the median open subspace. IP's local branch and bound prunes inside the open subspaces too, so the
open share is what its subspace bounds leave, not what it searches."""
import argparse
import math
from collections import Counter

import numpy as np

import kollective

MODELS = ("uniform normal modified_uniform modified_normal exponential beta gamma ndcs agent_uniform agent_normal "
          "chi_square weibull f cauchy student_t zipf pascal").split()


def partitions(n, largest=None):
    """The integer partitions of n, parts descending."""
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield (first,) + rest


def structures(parts):
    """How many coalition structures have these part sizes: n! / (prod s! * prod m_s!)."""
    count = math.factorial(sum(parts))
    for size, m in Counter(parts).items():
        count //= math.factorial(size) ** m * math.factorial(m)
    return count


def analyse(model, n, seed):
    values = np.asarray(kollective.generate_game(model, n, seed), dtype=float)
    sizes = popcounts(n)
    largest = {s: np.sort(values[sizes == s])[::-1][: n // s] for s in range(1, n + 1)}
    optimum = kollective.coalition(values, method="idp").optimum
    total = open_structures = 0
    subspaces = open_subspaces = 0
    excess = []
    for parts in partitions(n):
        bound = sum(largest[s][:m].sum() for s, m in Counter(parts).items())
        volume = structures(parts)
        total += volume
        subspaces += 1
        if bound > optimum:
            open_subspaces += 1
            open_structures += volume
            excess.append((bound - optimum) / abs(optimum))
    return optimum, subspaces, open_subspaces, open_structures / total, float(np.median(excess)) if excess else 0.0


def popcounts(n):
    """The size of every coalition, by mask."""
    masks = np.arange(1 << n, dtype=np.uint64)
    counts = np.zeros(1 << n, dtype=np.int8)
    for bit in range(n):
        counts += ((masks >> np.uint64(bit)) & np.uint64(1)).astype(np.int8)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=22)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--models", default=" ".join(MODELS))
    args = parser.parse_args()
    print(f"| distribution (n = {args.n}) | optimum | subspaces open / all | structures open | median open bound over optimum |")
    print("|---|---:|---:|---:|---:|")
    for model in args.models.split():
        optimum, subspaces, open_subspaces, open_share, excess = analyse(model, args.n, args.seed)
        print(f"| {model} | {optimum:.6g} | {open_subspaces} / {subspaces} | {open_share:.3g} | {excess:.2%} |", flush=True)


if __name__ == "__main__":
    main()
