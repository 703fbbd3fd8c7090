#!/usr/bin/env python3
"""SCIP's root bound on a random tournament, with and without its cutting planes (issue #54).

Asks whether a general solver's cut families (zero-half / {0,1/2}-Chvatal-Gomory cuts among
them) close more of the triangle LP's gap than Kollective's Moebius ladders. The instance is
perf/lop_peers.py's `--random-tournament N SEED` (the same generator, pair by pair), the model its
triangle ILP; SCIP (pyscipopt) stops after the root node (limits/nodes = 1), one thread.

    /tmp/peers-venv/bin/python perf/scip_root_bound.py N SEED MODE

MODE: none (separation off), default (SCIP's defaults), zerohalf (separation off but zero-half
cuts, every root round). Prints SCIP's dual bound as a LOP value (higher is weaker) and as a lower
bound on the disagreement D = 100 N (N - 1) / 2 - LOP, the root's time and LP iterations.
"""
import random
import sys
import time

from pyscipopt import Model, quicksum


def tournament(n, seed):
    """perf/lop_peers.py's random tournament: pair (i, j) in order gets k of 100 votes, k uniform."""
    rng = random.Random(seed)
    w = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            k = rng.randint(0, 100)
            w[i][j], w[j][i] = k, 100 - k
    return w


def main():
    n, seed, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    w = tournament(n, seed)
    m = Model()
    m.hideOutput()
    x = {(i, j): m.addVar(vtype="B") for i in range(n) for j in range(i + 1, n)}
    m.setObjective(quicksum(w[i][j] * x[i, j] + w[j][i] * (1 - x[i, j]) for (i, j) in x), "maximize")
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                m.addCons(x[i, j] + x[j, k] - x[i, k] <= 1)
                m.addCons(x[i, j] + x[j, k] - x[i, k] >= 0)
    m.setParam("limits/nodes", 1)
    m.setParam("parallel/maxnthreads", 1)
    m.setParam("limits/time", 600)
    if mode in ("none", "zerohalf"):
        m.setSeparating(3)  # SCIP_PARAMSETTING_OFF
    if mode == "zerohalf":
        m.setParam("separating/zerohalf/freq", 0)
        m.setParam("separating/zerohalf/maxroundsroot", -1)
    start = time.time()
    m.optimize()
    seconds = time.time() - start
    bound = m.getDualbound()
    print(f"{mode} n={n} seed={seed} root bound: LOP {bound:.2f}, D >= {100 * n * (n - 1) // 2 - bound:.2f}, "
          f"{seconds:.1f} s, {m.getNLPIterations()} LP iterations")


if __name__ == "__main__":
    main()
