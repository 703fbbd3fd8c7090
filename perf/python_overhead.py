"""What the Python layer adds to a call on small problems (issue #18): for each problem, the
median wall time of the Python call against the median time of the C++ solve inside it (the
results' `seconds`), over many calls after a warm-up. A benchmark, not a test.

    PYTHONPATH=build/openmp/python .deps/venv/bin/python perf/python_overhead.py [--calls 50]
"""

import argparse
import statistics
import time

import numpy as np

import kollective


def problems():
    """(name, call returning the C++ seconds) pairs, inputs prepared outside the timed call."""
    election = kollective.pairwise(kollective.generate_profile("mallows", 64, 1000, phi=0.8, seed=1))
    small = kollective.pairwise(kollective.generate_profile("impartial_culture", 12, 100, seed=1))
    values = kollective.generate_game("idpg", 14, seed=1)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5000, 46))
    qid = np.repeat(np.arange(100), 50)
    y = np.digitize(X @ rng.normal(size=46), [-1, 1]).astype(np.float64)
    model = kollective.RankSVM(C=1, eps=1e-3)
    return [
        ("schulze n=64 (paths returned)", lambda: kollective.schulze(election).seconds),
        ("kemeny n=12 dp", lambda: kollective.kemeny(small, method="dp").seconds),
        ("coalition n=14 idp", lambda: kollective.coalition(values).seconds),
        ("ranksvm 5000 docs x 46", lambda: model.fit(X, y, qid).fit_seconds_),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50)
    calls = parser.parse_args().calls
    print(f"backend {kollective.backend}, {calls} calls each (medians)")
    print(f"{'problem':<32} {'python call':>12} {'C++ solve':>12} {'added':>8}")
    for name, call in problems():
        call()  # warm-up: first allocations, thread start
        walls, solves = [], []
        for _ in range(calls):
            start = time.perf_counter()
            solves.append(call())
            walls.append(time.perf_counter() - start)
        wall, solve = statistics.median(walls), statistics.median(solves)
        print(f"{name:<32} {wall * 1e3:10.3f}ms {solve * 1e3:10.3f}ms {100 * (wall - solve) / wall:7.2f}%")


if __name__ == "__main__":
    main()
