#!/usr/bin/env python3
"""Exact linear ordering (LOP / weighted Kemeny) against general solvers, on the same instances.

Issue #36: a side-by-side record of Kollective's exact Kemeny/LOP solver and the general solvers a
user would pick instead: HiGHS (highspy), SCIP (pyscipopt) and CP-SAT (ortools), one thread each,
on the same instances, with the same time limit.

Setup (the peers come from PyPI; the script needs that venv's python, the rest is standard library):

    python3 -m venv /tmp/peers-venv && /tmp/peers-venv/bin/pip install highspy pyscipopt ortools

Usage:

    /tmp/peers-venv/bin/python perf/lop_peers.py --out results/lop_peers \\
        [--instances FILE ...] [--random-tournament N SEED ...] \\
        [--solvers highs,scip,cpsat,kollective] [--time-limit 300] \\
        [--kollective build/openmp/drivers/kollective] [--kollective-option count=false ...] \\
        [--optima perf/lolib/optima.csv]

    # e.g. one LOLIB instance and one random tournament of 40 alternatives, 60 s each:
    /tmp/peers-venv/bin/python perf/lop_peers.py --out /tmp/peers \\
        --instances /tmp/lolib/mat/t70f11xx --random-tournament 40 1 --time-limit 60 \\
        --kollective build/openmp/drivers/kollective --optima perf/lolib/optima.csv

The model (the standard LOP ILP). An instance is an n x n integer weight matrix w (signed weights
allowed, the diagonal ignored). Binary x_ij for i < j (1: i placed before j). Maximise
    sum over i<j of  w[i][j] x_ij + w[j][i] (1 - x_ij)
subject to, for every i < j < k, the 3-dicycle (triangle) inequalities
    x_ij + x_jk - x_ik <= 1   and   -x_ij - x_jk + x_ik <= 0,
written as one ranged row 0 <= x_ij + x_jk - x_ik <= 1 (the same polytope; n (n-1) (n-2) / 6 rows,
67525 for n = 75). All rows are given up front to every peer (no lazy separation).

  highs       highspy: the model passed as one HighsLp (row-wise matrix), threads = 1,
              mip_rel_gap = 0, mip_abs_gap = 0.999 (the objective is an integer, so a gap below 1
              proves optimality), time_limit. Bound: info.mip_dual_bound.
  scip        pyscipopt: the same rows as linear constraints; parallel/maxnthreads = 1 and
              lp/threads = 1 where the build has them, limits/gap = 0, limits/time.
              Bound: getDualbound().
  cpsat       ortools CP-SAT: Boolean variables, the rows as linear constraints; num_workers = 1,
              linearization_level = 2, max_time_in_seconds. Bound: best_objective_bound (left
              empty when no solution was found: CP-SAT then reports 0).
  kollective  only with --kollective PATH: `PATH run` on a generated config (input {lolib: FILE},
              options {method: auto, time_limit: T}, repetitions 1, warmup 0, verify false,
              write {rankings: false}) with OMP_NUM_THREADS=1; reads OUT/kollective/<run>/<run>.csv
              (lop_value, lop_upper_bound, exact, seconds). Its `seconds` is the driver's own
              measure of the solve; Kollective's time_limit is per component of branch and cut.
  brute       testing only (never a default): every one of the n! orders; `skipped` above n = 9.

Each solver runs in its own process (this script with --worker), so a failing or hanging solver
does not stop the rest. A peer gets time limit T less its model-building time, so build + solve
stay within T; any process still running at T + max(30, T/5) seconds is killed (status `killed`).

Inputs. --instances FILE...: LOLIB format (an optional name line, n, then n*n integers; the name
line may be repeated after the matrix), parsed by perf/lolib/check_lolib.py's parse_lolib. The
instance name is the file name less .mat/.lop/.txt/.dat. --random-tournament N SEED (repeatable):
each pair i < j gets 100 votes split uniformly at random, w[i][j] = k and w[j][i] = 100 - k with k
uniform in 0..100 from random.Random(SEED) (pairs in order (0,1), (0,2), ..., (n-2,n-1)); named
random_nN_sSEED. Every instance is written in plain LOLIB form (no name line, diagonal 0) to
OUT/instances/, and that file is what every solver reads. process_seconds is the one time measured
the same way for every solver; `seconds` is each one's own account (see below).

Output. OUT/lop_peers.csv, one row per (instance, solver):
  instance, n, solver, status (the solver's own word), proven (true/false), objective (best
  ordering found), bound (best upper bound), seconds (build + solve, measured in the worker with
  time.perf_counter; for kollective its table's `seconds`), optimum (from --optima, if listed),
  matches (true: objective == optimum; false: a proven objective differs from it, or any objective
  exceeds it; below: not proven and below it; empty: no optimum),
  build_seconds (the peers' model building, included in seconds), process_seconds (the whole
  worker or driver process, wall clock, Python start and imports included), note.
Solver logs go to OUT/logs/<instance>__<solver>.log. A short table is printed at the end, with a
warning where two solvers prove different values for one instance. The exit code is 1 when any
solver failed or any value mismatches.
"""

import argparse
import csv
import importlib.util
import itertools
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout by the import below
sys.path.insert(0, os.path.join(HERE, "lolib"))
from check_lolib import KNOWN_EXTENSIONS, LolibError, parse_lolib, read_optima, run_name  # noqa: E402

PEERS = {"highs": "highspy", "scip": "pyscipopt", "cpsat": "ortools"}
ALL_SOLVERS = ("highs", "scip", "cpsat", "kollective", "brute")
RESULT_MARK = "LOP_PEERS_RESULT "
COLUMNS = ["instance", "n", "solver", "status", "proven", "objective", "bound", "seconds", "optimum", "matches",
           "build_seconds", "process_seconds", "note"]


# ---------------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------------

def pair_index(n, i, j):
    """Index of x_ij (i < j) among the n (n-1) / 2 variables, row by row."""
    return i * n - i * (i + 1) // 2 + (j - i - 1)


def objective_terms(n, w):
    """(coefficients of x_ij, constant): w_ij x_ij + w_ji (1 - x_ij) = (w_ij - w_ji) x_ij + w_ji."""
    coef = [0] * (n * (n - 1) // 2)
    const = 0
    for i in range(n):
        for j in range(i + 1, n):
            coef[pair_index(n, i, j)] = w[i][j] - w[j][i]
            const += w[j][i]
    return coef, const


def triangles(n):
    """(a, b, c) = (x_ij, x_jk, x_ik) indices for every i < j < k."""
    for i in range(n):
        for j in range(i + 1, n):
            a = pair_index(n, i, j)
            for k in range(j + 1, n):
                yield a, pair_index(n, j, k), pair_index(n, i, k)


def ordering_value(w, order):
    return sum(w[order[p]][order[q]] for p in range(len(order)) for q in range(p + 1, len(order)))


# ---------------------------------------------------------------------------------------------
# Workers: one solver on one instance, in a process of its own. Each returns a dict with status,
# proven, objective, bound, build_seconds, seconds (build + solve) and note.
# ---------------------------------------------------------------------------------------------

def solve_highs(n, w, limit):
    import highspy
    import numpy as np

    started = time.perf_counter()
    coef, const = objective_terms(n, w)
    m = len(coef)
    tri = np.fromiter(itertools.chain.from_iterable(triangles(n)), dtype=np.int32).reshape(-1, 3)
    rows = tri.shape[0]
    lp = highspy.HighsLp()
    lp.num_col_ = m
    lp.num_row_ = rows
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.offset_ = float(const)
    lp.col_cost_ = np.array(coef, dtype=np.float64)
    lp.col_lower_ = np.zeros(m)
    lp.col_upper_ = np.ones(m)
    lp.row_lower_ = np.zeros(rows)
    lp.row_upper_ = np.ones(rows)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_ = m
    lp.a_matrix_.num_row_ = rows
    lp.a_matrix_.start_ = np.arange(0, 3 * rows + 1, 3, dtype=np.int32)
    lp.a_matrix_.index_ = tri.reshape(-1)  # per row: x_ij, x_jk, x_ik (distinct columns)
    lp.a_matrix_.value_ = np.tile(np.array([1.0, 1.0, -1.0]), rows)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * m
    h = highspy.Highs()
    h.setOptionValue("output_flag", True)
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.999)
    status = h.passModel(lp)
    if status == highspy.HighsStatus.kError:
        raise RuntimeError("passModel failed")
    build = time.perf_counter() - started
    h.setOptionValue("time_limit", max(1.0, limit - build))
    h.run()
    seconds = time.perf_counter() - started
    model_status = h.getModelStatus()
    info = h.getInfo()
    has_solution = info.primal_solution_status == 2  # kSolutionStatusFeasible
    objective = info.objective_function_value if has_solution else None
    bound = info.mip_dual_bound if math.isfinite(info.mip_dual_bound) else None
    note = "nodes %d, HiGHS %s" % (info.mip_node_count, h.version())
    if has_solution:
        x = h.getSolution().col_value
        note += check_ordering(n, w, [1 if v > 0.5 else 0 for v in x], objective)
    return {"status": h.modelStatusToString(model_status), "proven": model_status == highspy.HighsModelStatus.kOptimal,
            "objective": objective, "bound": bound, "build_seconds": build, "seconds": seconds, "note": note}


def solve_scip(n, w, limit):
    import pyscipopt

    started = time.perf_counter()
    coef, const = objective_terms(n, w)
    model = pyscipopt.Model("lop")
    x = [model.addVar(vtype="B", name="x%d" % t) for t in range(len(coef))]
    for a, b, c in triangles(n):
        model.addCons(pyscipopt.scip.ExprCons(x[a] + x[b] - x[c], lhs=0.0, rhs=1.0))
    model.setObjective(pyscipopt.quicksum(cf * v for cf, v in zip(coef, x) if cf), "maximize")
    model.addObjoffset(const)
    params = model.getParams()
    notes = []
    for key in ("parallel/maxnthreads", "parallel/minnthreads", "lp/threads"):
        if key in params:
            model.setParam(key, 1)
        else:
            notes.append("no parameter " + key)
    model.setParam("limits/gap", 0.0)
    model.setParam("limits/absgap", 0.0)
    build = time.perf_counter() - started
    model.setParam("limits/time", max(1.0, limit - build))
    model.optimize()
    seconds = time.perf_counter() - started
    status = model.getStatus()
    has_solution = model.getNSols() > 0
    objective = model.getObjVal() if has_solution else None
    bound = model.getDualbound()
    bound = bound if math.isfinite(bound) and abs(bound) < 1e19 else None
    notes.insert(0, "nodes %d, SCIP %d.%d.%d, PySCIPOpt %s" % (model.getNNodes(), model.getMajorVersion(),
                                                             model.getMinorVersion(), model.getTechVersion(),
                                                             getattr(pyscipopt, "__version__", "?")))
    note = ", ".join(notes)
    if has_solution:
        best = model.getBestSol()
        note += check_ordering(n, w, [1 if model.getSolVal(best, v) > 0.5 else 0 for v in x], objective)
    return {"status": status, "proven": status == "optimal", "objective": objective, "bound": bound,
            "build_seconds": build, "seconds": seconds, "note": note}


def solve_cpsat(n, w, limit):
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    coef, const = objective_terms(n, w)
    model = cp_model.CpModel()
    x = [model.new_bool_var("x%d" % t) for t in range(len(coef))]
    for a, b, c in triangles(n):
        model.add_linear_constraint(x[a] + x[b] - x[c], 0, 1)
    model.maximize(cp_model.LinearExpr.weighted_sum(x, coef) + const)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 2
    solver.parameters.log_search_progress = True
    solver.parameters.log_to_stdout = True
    build = time.perf_counter() - started
    solver.parameters.max_time_in_seconds = max(1.0, limit - build)
    status = solver.solve(model)
    seconds = time.perf_counter() - started
    has_solution = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    objective = solver.objective_value if has_solution else None
    # Without a solution CP-SAT reports 0 as its bound (seen at n = 75 stopped in presolve): none.
    bound = solver.best_objective_bound if has_solution else None
    note = "branches %d, conflicts %d, ortools %s" % (solver.num_branches, solver.num_conflicts, ortools_version())
    if has_solution:
        note += check_ordering(n, w, [1 if solver.boolean_value(v) else 0 for v in x], objective)
    return {"status": solver.status_name(status), "proven": status == cp_model.OPTIMAL, "objective": objective,
            "bound": bound, "build_seconds": build, "seconds": seconds, "note": note}


def ortools_version():
    import ortools
    return getattr(ortools, "__version__", "?")


def solve_brute(n, w, limit):
    if n > 9:
        raise RuntimeError("brute force is for n <= 9 (n = %d)" % n)
    started = time.perf_counter()
    best = None
    for order in itertools.permutations(range(n)):
        value = ordering_value(w, order)
        if best is None or value > best:
            best = value
    seconds = time.perf_counter() - started
    return {"status": "enumerated", "proven": True, "objective": best, "bound": best, "build_seconds": 0.0,
            "seconds": seconds, "note": "%d orders" % math.factorial(n)}


def check_ordering(n, w, x, objective):
    """Re-scores a solver's x as an ordering: '' if it is one and scores `objective`, else a note."""
    wins = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            if x[pair_index(n, i, j)]:
                wins[i] += 1
            else:
                wins[j] += 1
    order = sorted(range(n), key=lambda v: -wins[v])
    if sorted(wins) != list(range(n)):
        return "; SOLUTION IS NOT AN ORDERING"
    value = ordering_value(w, order)
    return "" if abs(value - objective) < 0.5 else "; SOLUTION RESCORES TO %d" % value


WORKERS = {"highs": solve_highs, "scip": solve_scip, "cpsat": solve_cpsat, "brute": solve_brute}


def worker_main(solver, path, limit):
    n, w, _ = parse_lolib(path)
    try:
        result = WORKERS[solver](n, w, limit)
    except Exception as e:  # reported as the row's status; the parent goes on
        import traceback
        traceback.print_exc()
        result = {"status": "error", "proven": False, "note": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.flush()
    print("\n" + RESULT_MARK + json.dumps(result), flush=True)
    return 0


# ---------------------------------------------------------------------------------------------
# The parent: instances, processes, the table
# ---------------------------------------------------------------------------------------------

def random_tournament(n, seed):
    rng = random.Random(seed)
    w = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            k = rng.randint(0, 100)
            w[i][j], w[j][i] = k, 100 - k
    return w


def write_plain(path, n, w):
    with open(path, "w") as f:
        f.write("%d\n" % n)
        for row in w:
            f.write(" ".join(str(v) for v in row) + "\n")


def instance_name(path):
    name = os.path.basename(path)
    for ext in KNOWN_EXTENSIONS:
        if name.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)]
    return name


def run_process(command, log_path, kill_after, env=None):
    """Runs command (its own process group) with stdout + stderr to log_path; kills the group after
    kill_after seconds. Returns (exit code or None if killed, wall seconds)."""
    started = time.perf_counter()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            code = proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            code = None
    return code, time.perf_counter() - started


def run_peer(solver, name, path, limit, kill_after, log_dir):
    log_path = os.path.join(log_dir, "%s__%s.log" % (run_name(name), solver))
    env = dict(os.environ, OMP_NUM_THREADS="1")
    code, wall = run_process([sys.executable, os.path.abspath(__file__), "--worker", solver, path, repr(limit)],
                             log_path, kill_after, env)
    result = None
    with open(log_path, errors="replace") as f:
        for line in f:
            if line.startswith(RESULT_MARK):
                result = json.loads(line[len(RESULT_MARK):])
    if code is None:
        result = {"status": "killed", "proven": False, "note": "still running after %.0f s; see %s" % (kill_after, log_path)}
    elif result is None:
        result = {"status": "error", "proven": False, "note": "exit code %d, no result; see %s" % (code, log_path)}
    result["process_seconds"] = wall
    return result


def kollective_config(path, run, instance_path, out_dir, limit, options):
    text_limit = str(int(limit)) if limit == int(limit) else repr(limit)
    extra = "".join(", %s: %s" % kv for kv in options)
    lines = [
        "# Written by perf/lop_peers.py: one LOP instance for the comparison with general solvers.",
        "title: LOP peers",
        "output: " + json.dumps(out_dir),
        "runs:",
        "  - name: " + run,
        "    algorithm: kemeny",
        "    input: {lolib: " + json.dumps(instance_path) + "}",
        "    options: {method: auto, time_limit: " + text_limit + extra + "}",
        "    repetitions: 1",
        "    warmup: 0",
        "    verify: false",
        "    write: {rankings: false}",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def number(text):
    text = (text or "").strip()
    if not text:
        return None
    value = float(text)
    return int(value) if value == int(value) and abs(value) < 2 ** 53 else value


def run_kollective(binary, name, path, limit, kill_after, out_dir, log_dir, options):
    run = run_name(name)
    run_dir = os.path.join(out_dir, "kollective", run)
    os.makedirs(run_dir, exist_ok=True)
    stale = os.path.join(run_dir, run + ".csv")
    if os.path.exists(stale):
        os.remove(stale)
    config = os.path.join(run_dir, run + ".yaml")
    kollective_config(config, run, path, run_dir, limit, options)
    log_path = os.path.join(log_dir, "%s__kollective.log" % run)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    code, wall = run_process([binary, "run", config, "--out", run_dir, "--quiet"], log_path, kill_after, env)
    if code is None:
        return {"status": "killed", "proven": False, "process_seconds": wall,
                "note": "still running after %.0f s; see %s" % (kill_after, log_path)}
    table = os.path.join(run_dir, run + ".csv")
    if code != 0 or not os.path.exists(table):
        return {"status": "error", "proven": False, "process_seconds": wall,
                "note": "exit code %d%s; see %s" % (code, "" if os.path.exists(table) else ", no table", log_path)}
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "lop_value" not in rows[-1]:
        return {"status": "error", "proven": False, "process_seconds": wall, "note": "no lop_value in " + table}
    row = rows[-1]
    exact = row.get("exact", "").strip().lower() == "true"
    note = "method %s, components %s, search_nodes %s" % (row.get("method", "?"), row.get("components", "?"),
                                                          row.get("search_nodes", "?"))
    return {"status": "optimal" if exact else "not_proven", "proven": exact, "objective": number(row["lop_value"]),
            "bound": number(row.get("lop_upper_bound")), "seconds": number(row.get("solve_s", row.get("seconds"))), "build_seconds": None,
            "process_seconds": wall, "note": note}


def fmt(value, digits=3):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15 and digits == 0:
            return str(int(value))
        return ("%." + str(digits) + "f") % value
    return str(value)


def integral(value):
    """A solver's objective or bound as the integer it stands for (objectives are integers)."""
    if value is None:
        return None
    return int(round(value))


def matches(optimum, objective, proven):
    if optimum is None or objective is None:
        return ""
    value = integral(objective)
    if value == optimum:
        return "true"
    if value > optimum or proven:
        return "false"
    return "below"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__[__doc__.index("Setup"):])
    p.add_argument("--instances", nargs="+", default=[], metavar="FILE", help="LOLIB-format instance files")
    p.add_argument("--random-tournament", nargs=2, type=int, action="append", default=[], metavar=("N", "SEED"),
                   help="a random tournament of N alternatives, 100 votes per pair (repeatable)")
    p.add_argument("--solvers", help="comma-separated, of %s (default: the peers importable here, and kollective "
                   "when --kollective is given)" % ",".join(ALL_SOLVERS))
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds per solver and instance (default 300)")
    p.add_argument("--out", required=True, help="output folder (CSV, instances, logs)")
    p.add_argument("--optima", help="optima table, e.g. perf/lolib/optima.csv (adds optimum and matches)")
    p.add_argument("--kollective", metavar="PATH", help="the kollective driver binary")
    p.add_argument("--kollective-option", action="append", default=[], metavar="KEY=VALUE",
                   help="one more Kemeny option for kollective's config, e.g. count=false (repeatable)")
    return p.parse_args(argv)


def main(argv):
    if len(argv) == 4 and argv[0] == "--worker":
        return worker_main(argv[1], argv[2], float(argv[3]))
    args = parse_args(argv)
    if not (args.time_limit > 0):
        sys.exit("--time-limit must be positive")
    if not args.instances and not args.random_tournament:
        sys.exit("nothing to solve: give --instances FILE... and/or --random-tournament N SEED")

    available = [s for s, module in PEERS.items() if importlib.util.find_spec(module) is not None]
    if args.solvers:
        solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
        unknown = [s for s in solvers if s not in ALL_SOLVERS]
        if unknown:
            sys.exit("unknown solver(s) %s; choose from %s" % (",".join(unknown), ",".join(ALL_SOLVERS)))
        missing = [s for s in solvers if s in PEERS and s not in available]
        if missing:
            sys.exit("%s not importable by %s; see the setup in this script's docstring" % (",".join(missing),
                                                                                            sys.executable))
    else:
        solvers = available + (["kollective"] if args.kollective else [])
        if not available:
            print("warning: none of highspy, pyscipopt, ortools importable by %s" % sys.executable, file=sys.stderr)
    binary = None
    if "kollective" in solvers:
        binary = args.kollective or os.path.join(REPO_ROOT, "build", "openmp", "drivers", "kollective")
        if not os.path.isabs(binary) and not os.path.exists(binary) and os.path.exists(os.path.join(REPO_ROOT, binary)):
            binary = os.path.join(REPO_ROOT, binary)
        if not os.access(binary, os.X_OK):
            sys.exit("kollective driver not found or not executable: %s (pass --kollective PATH)" % binary)
        binary = os.path.abspath(binary)
    options = []
    for item in args.kollective_option:
        key, sep, value = item.partition("=")
        if not sep or not re.match(r"[A-Za-z_]+\Z", key.strip()):
            sys.exit("--kollective-option %r: expected KEY=VALUE" % item)
        options.append((key.strip(), value.strip()))
    optima = read_optima(args.optima) if args.optima else {}

    out_dir = os.path.abspath(args.out)
    instance_dir = os.path.join(out_dir, "instances")
    log_dir = os.path.join(out_dir, "logs")
    os.makedirs(instance_dir, exist_ok=True)
    os.makedirs(log_dir, exist_ok=True)

    instances = []  # (name, n, plain path)
    names = set()

    def add(name, n, w):
        if name in names or run_name(name) in {run_name(k) for k in names}:
            sys.exit("two instances are named %s" % name)
        names.add(name)
        path = os.path.join(instance_dir, run_name(name) + ".lop")
        write_plain(path, n, w)
        instances.append((name, n, path))

    for path in args.instances:
        try:
            n, w, notes = parse_lolib(path)
        except (LolibError, OSError, UnicodeDecodeError) as e:
            sys.exit("%s: %s" % (path, e))
        for i in range(n):
            w[i][i] = 0
        if notes:
            print("note: %s: %s" % (path, "; ".join(notes)), file=sys.stderr)
        add(instance_name(path), n, w)
    for n, seed in args.random_tournament:
        if n < 1:
            sys.exit("--random-tournament: N must be at least 1")
        add("random_n%d_s%d" % (n, seed), n, random_tournament(n, seed))

    limit = args.time_limit
    kill_after = limit + max(30.0, limit / 5)
    results = []
    for name, n, path in instances:
        for solver in solvers:
            print("%s (n = %d): %s ..." % (name, n, solver), end="", file=sys.stderr, flush=True)
            try:
                if solver == "brute" and n > 9:
                    r = {"status": "skipped", "proven": False, "note": "brute force is for n <= 9"}
                elif solver == "kollective":
                    r = run_kollective(binary, name, path, limit, kill_after, out_dir, log_dir, options)
                else:
                    r = run_peer(solver, name, path, limit, kill_after, log_dir)
            except Exception as e:  # keep going with the other solvers
                r = {"status": "error", "proven": False, "note": "%s: %s" % (type(e).__name__, e)}
            optimum = optima[name]["optimum"] if name in optima else None
            if name in optima and optima[name]["n"] != n:
                r["note"] = (r.get("note") or "") + "; n = %d here, %d in the optima table" % (n, optima[name]["n"])
                optimum = None
            row = {"instance": name, "n": n, "solver": solver, "status": r.get("status"), "proven": bool(r.get("proven")),
                   "objective": integral(r.get("objective")), "bound": r.get("bound"), "seconds": r.get("seconds"),
                   "optimum": optimum, "matches": matches(optimum, r.get("objective"), bool(r.get("proven"))),
                   "build_seconds": r.get("build_seconds"), "process_seconds": r.get("process_seconds"),
                   "note": r.get("note") or ""}
            results.append(row)
            print(" %s %s %s s" % (row["status"], fmt(row["objective"]), fmt(row["seconds"], 2)), file=sys.stderr)

    table = os.path.join(out_dir, "lop_peers.csv")
    with open(table, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        for row in results:
            writer.writerow([fmt(row[c], 6) if isinstance(row[c], float) else fmt(row[c]) for c in COLUMNS])

    sys.stderr.flush()
    print("%-18s %4s %-10s %-18s %6s %12s %14s %10s %10s %8s" % ("instance", "n", "solver", "status", "proven",
                                                                "objective", "bound", "seconds", "process_s", "matches"))
    for row in results:
        print("%-18s %4d %-10s %-18s %6s %12s %14s %10s %10s %8s" % (
            row["instance"][:18], row["n"], row["solver"], (row["status"] or "")[:18], fmt(row["proven"]),
            fmt(row["objective"]), fmt(row["bound"], 2), fmt(row["seconds"], 2), fmt(row["process_seconds"], 2),
            row["matches"]))
    bad = 0
    for name, _, _ in instances:
        proven = {row["solver"]: row["objective"] for row in results if row["instance"] == name and row["proven"]}
        if len(set(proven.values())) > 1:
            bad += 1
            print("WARNING %s: solvers prove different values: %s" % (
                name, ", ".join("%s %s" % kv for kv in sorted(proven.items()))))
    for row in results:
        if row["matches"] == "false":
            bad += 1
            print("WARNING %s %s: value %s, published optimum %s" % (row["instance"], row["solver"],
                                                                     row["objective"], row["optimum"]))
        if row["status"] in ("error", "killed") or "SOLUTION" in row["note"]:
            bad += 1
            print("WARNING %s %s: %s (%s)" % (row["instance"], row["solver"], row["status"], row["note"]))
    print("%d row(s) in %s" % (len(results), table))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
