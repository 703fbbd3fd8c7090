#!/usr/bin/env python3
"""SCIP's root bound on a random tournament, with and without its cutting planes (issue #54).

Asks whether a general solver's cut families (zero-half / {0,1/2}-Chvatal-Gomory cuts among
them) close more of the triangle LP's gap than Kollective's Moebius ladders. The instance is
perf/lop_peers.py's `--random-tournament N SEED`, the model its SCIP model (both imported from
it: the triangle ILP, one ranged row a triangle); SCIP (pyscipopt) stops after the root node
(limits/nodes = 1), one thread.

    /tmp/peers-venv/bin/python perf/scip_root_bound.py N SEED MODE

MODE: none (separation off), default (SCIP's defaults), zerohalf (separation off but zero-half
cuts, every root round). Prints SCIP's dual bound as a LOP value (higher is weaker) and as a lower
bound on the disagreement D = 100 N (N - 1) / 2 - LOP, the root's time and LP iterations.
"""
import sys
import time

from pyscipopt import Model, quicksum
from pyscipopt.scip import ExprCons

from lop_peers import objective_terms, random_tournament, triangles  # the instance and model of the peers' runs


def main():
    n, seed, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    coef, const = objective_terms(n, random_tournament(n, seed))
    m = Model()
    m.hideOutput()
    x = [m.addVar(vtype="B") for _ in coef]
    for a, b, c in triangles(n):
        m.addCons(ExprCons(x[a] + x[b] - x[c], lhs=0.0, rhs=1.0))
    m.setObjective(quicksum(cf * v for cf, v in zip(coef, x) if cf), "maximize")
    m.addObjoffset(const)
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
