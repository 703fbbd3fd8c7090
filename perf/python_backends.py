"""The Python package on another backend (issue #18): solves a fixed set of problems, writes their
answers and times as JSON, and with --compare checks the answers against another build's JSON
(integer problems exactly, RankSVM's objective within --rtol). Used to check the CUDA build of
the package on a GPU machine against the OpenMP build (scripts/gpu_python.sh).

    PYTHONPATH=build/openmp/python .deps/venv/bin/python perf/python_backends.py --out cpu.json
    python3 perf/python_backends.py --out cuda.json --compare cpu.json
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np

import kollective


def letor(documents, features, queries, seed):
    """A seeded learning-to-rank set: X, grades 0..2 from a hidden linear score, query ids."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(documents, features))
    y = np.digitize(X @ rng.normal(size=features) + rng.normal(size=documents), [-1, 1]).astype(np.float64)
    return X, y, np.repeat(np.arange(queries), documents // queries)


def problems():
    """name -> call returning (answer, C++ seconds); inputs are made before the calls."""
    big = kollective.pairwise(kollective.generate_profile("mallows", 512, 1000, phi=0.9, seed=3))
    small = kollective.pairwise(kollective.generate_profile("mallows", 64, 1000, phi=0.8, seed=1))
    tied = kollective.pairwise(kollective.generate_profile("impartial_culture", 16, 7, seed=5))
    dp = kollective.pairwise(kollective.generate_profile("impartial_culture", 20, 100, seed=2))
    values = kollective.generate_game("idpg", 18, seed=1)
    X, y, qid = letor(20000, 46, 400, seed=1)

    def schulze(matrix):
        result = kollective.schulze(matrix)
        return {"winners": result.winners, "ranking": result.ranking,
                "paths_sum": float(result.doubled_paths.sum())}, result.seconds

    def kemeny(matrix):
        result = kollective.kemeny(matrix, method="dp", list_limit=50)
        return {"distance": result.distance, "count": result.count, "rankings": result.rankings}, result.seconds

    def coalition(precision):
        result = kollective.coalition(values, precision=precision)
        return {"value": result.value, "masks": result.masks}, result.seconds

    def ranksvm(precision):
        model = kollective.RankSVM(C=1, eps=1e-6, precision=precision).fit(X, y, qid)
        return {"objective": model.objective_, "cg_steps": model.cg_steps_}, model.fit_seconds_

    return {
        "schulze_n64": lambda: schulze(small),
        "schulze_n512": lambda: schulze(big),
        "kemeny_dp_n16_ties": lambda: kemeny(tied),
        "kemeny_dp_n20": lambda: kemeny(dp),
        "coalition_idp_n18_double": lambda: coalition("double"),
        "coalition_idp_n18_float": lambda: coalition("float"),
        "ranksvm_20000x46_double": lambda: ranksvm("double"),
        "ranksvm_20000x46_float": lambda: ranksvm("float"),
    }


def run(calls):
    results = {}
    for name, call in problems().items():
        answer, _ = call()  # warm-up: first allocations, kernel loads
        walls, solves = [], []
        for _ in range(calls):
            start = time.perf_counter()
            answer, seconds = call()
            walls.append(time.perf_counter() - start)
            solves.append(seconds)
        results[name] = {"answer": answer, "python_s": statistics.median(walls), "solve_s": statistics.median(solves)}
    return results


def differences(ours, theirs, rtol):
    """What differs between two runs' answers: exact, except floating objectives and values."""
    found = []
    for name, mine in ours.items():
        if name not in theirs:
            found.append(f"{name}: missing from the comparison file")
            continue
        for key, value in mine["answer"].items():
            other = theirs[name]["answer"].get(key)
            if key == "cg_steps" or (key in ("objective", "value") and "float" in name):
                continue  # float sums in another order: other steps, same optimum within rtol
            if isinstance(value, float) and key in ("objective", "value"):
                if abs(value - other) > rtol * abs(other):
                    found.append(f"{name}.{key}: {value!r} against {other!r}")
            elif value != other:
                found.append(f"{name}.{key}: {str(value)[:80]} against {str(other)[:80]}")
        if "float" in name:
            key = "objective" if "objective" in mine["answer"] else "value"
            value, other = mine["answer"][key], theirs[name]["answer"][key]
            if abs(value - other) > 1e-4 * abs(other):
                found.append(f"{name}.{key}: {value!r} against {other!r} (float, 1e-4)")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--compare", help="another run's JSON: fail where the answers differ")
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--rtol", type=float, default=1e-9)
    args = parser.parse_args()
    results = run(args.calls)
    with open(args.out, "w") as out:
        json.dump({"backend": kollective.backend, "calls": args.calls, "problems": results}, out, indent=1)
    print(f"backend {kollective.backend}, median of {args.calls} calls")
    print(f"{'problem':<28} {'python call':>12} {'C++ solve':>12} {'added':>8}")
    for name, r in results.items():
        added = 100 * (r["python_s"] - r["solve_s"]) / r["python_s"]
        print(f"{name:<28} {r['python_s'] * 1e3:10.3f}ms {r['solve_s'] * 1e3:10.3f}ms {added:7.2f}%")
    if args.compare:
        with open(args.compare) as source:
            theirs = json.load(source)
        found = differences(results, theirs["problems"], args.rtol)
        print(f"against {theirs['backend']} ({args.compare}): " + ("same answers" if not found else "DIFFERENT"))
        for line in found:
            print("  " + line)
        sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
