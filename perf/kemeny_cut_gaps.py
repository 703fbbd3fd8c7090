#!/usr/bin/env python3
"""How much of the triangle LP's root gap do fence and Möbius ladder inequalities close?

A measurement for issue #54 (random tournaments of 40-45 alternatives and SGB n = 75 are slow
because the 3-dicycle LP is weak). For each instance it solves, with HiGHS, the LP relaxation of
the linear ordering problem at the root (no branching) four times, each by cutting planes from
the same start:

  triangle   the 3-dicycle (triangle) inequalities x(a,b) + x(b,c) + x(c,a) <= 2, separated
             exactly (every violated one, all n^3 checked) until none is violated by > EPS
  +fence     then rounds of fence inequalities (t = 3 exactly over the LP's fractional arcs,
             t >= 4 by greedy extension) together with triangles
  +mobius    the same with Möbius ladder inequalities (heuristic) in place of fences
  +both      fences and Möbius ladders together

A round separates the family and the triangles on the current LP point, adds every cut found
(capped per round), re-solves by dual simplex from the previous basis; the rounds stop when no
cut is violated by more than EPS = 1e-6 or after --rounds (default 20). No cut is ever removed.

Convention. Everything is reported as a MINIMISATION of the disagreement (for a Kemeny
instance, the Kemeny distance): for an n x n matrix w (w[a][b] = voters, or weight, for a
before b), an ordering costs sum over pairs of the weight of the order it rejects,
D = sum_{a before b} w[b][a]. For a LOLIB instance D = (sum_{a != b} w[a][b]) - LOP value, so the
LP bound is a lower bound on D and the optimum D* >= bound. The share of the gap closed by a
family is (bound_family - bound_triangle) / (D* - bound_triangle).

The inequalities (x(a,b) = 1: a before b; x(b,a) = 1 - x(a,b)):
  fence, t >= 3   (Grötschel, Jünger, Reinelt 1985, "Facets of the linear ordering polytope",
                  Math. Programming 33, 43-60; Martí and Reinelt, "The Linear Ordering Problem",
                  Springer 2011): disjoint U = {u_1..u_t}, L = {l_1..l_t}; the arcs
                  (u_i, l_i) ("pales") and (l_j, u_i) for i != j;
                  sum_i x(u_i,l_i) + sum_{i != j} x(l_j,u_i) <= t^2 - t + 1
                  (equivalently sum_i x(u_i,l_i) - sum_{i != j} x(u_i,l_j) <= 1). A facet for
                  every t >= 3; t = 2 is the 4-dicycle inequality, implied by triangles.
  Möbius ladder   (same references): k odd >= 3 dicycles C_1..C_k of 3 or 4 arcs each, C_i and
                  C_{i+1} (indices mod k) sharing exactly one arc ("rung"), non-consecutive ones
                  arc-disjoint, and a node common to C_i and C_j lying on all of C_i..C_j or on
                  all of C_j..C_k, C_1..C_i; A the union of their arcs:
                  x(A) <= |A| - (k + 1) / 2.
                  (Valid because every ordering breaks each dicycle, and one broken arc breaks
                  at most two of the cycles, which must be consecutive; facet-defining under the
                  node condition.) The script only adds ladders that pass every condition above,
                  whose union has no pair of opposite arcs.
In every round the first 20 and the last 10 fence / ladder cuts (most and least violated) on up to
10 nodes are checked against an exact maximum acyclic subgraph DP over their nodes (an invalid
cut stops the run; stats counts the checked ones and those whose right-hand side is not tight).
--selftest also checks, by enumerating all orderings, that the 3-fence and the 3-rung 4-cycle
ladder (K_3,3) are facets of P_LO^6 (15 affinely independent tight orderings).

Separation. Triangles: exact. Fences, t = 3: exact over pales with 0 < x < 1 (a pale with x = 1
or 0 cannot be in a violated fence: with x(u_1,l_1) = 1 the 4-dicycle inequalities give
x(u_1,l_j) + x(u_j,l_1) >= x(u_j,l_j) and the rest is at most 1); t >= 4: every 3-fence of
value > 1 - 0.5 is extended greedily by the pale that raises the value most. Möbius ladders:
a "rung graph" on the arcs, where rungs e and f are joined by the unique 3- or 4-dicycle C
that holds both (e then f), with weight c(e,f) = slack(C) + (x_e + x_f) / 2 - 1/2; a ladder
with k dicycles is violated iff its closed walk of k steps weighs < 1/2. Closed walks of
k = 3, 5, 7 steps are found by min-plus products over the rungs that have an edge of weight
< --mobius-edge (default 0.5), and kept where the walk is a valid ladder.

Setup (the script needs numpy and highspy; the rest is standard library):

    python3 -m venv /tmp/cuts-venv && /tmp/cuts-venv/bin/pip install highspy numpy

Usage:

    /tmp/cuts-venv/bin/python perf/kemeny_cut_gaps.py --out /tmp/cut_gaps \\
        --kollective build/openmp/drivers/kollective \\
        --random-pairwise 40 1 [--random-pairwise N SEED ...]   # the driver's random_pairwise, 100 voters
        [--peers-tournament 40 1 ...]                           # perf/lop_peers.py --random-tournament
        [--lolib FILE ...] [--optima perf/lolib/optima.csv]     # LOLIB files; optima by file name
        [--optimum NAME=D ...] [--best-known NAME=D ...]         # known optimal / best distances
        [--solve-optimum --time-limit 400]                      # else: the driver proves it

  --random-pairwise N SEED: the driver's generator {model: random_pairwise, alternatives: N,
      voters: --voters (100), seed: SEED}; the matrix is written by a Schulze run with
      write: {pairwise: true} (the same device generator the Kemeny runner calls), named
      rp_nN_sSEED. --peers-tournament N SEED: perf/lop_peers.py's random_tournament (Python's
      random.Random(SEED), 100 votes a pair), named peers_nN_sSEED.
  The optimum D*: --optimum NAME=D, else --optima (LOLIB LOP values, converted), else with
  --solve-optimum the driver (method auto, count false, --time-limit s, one thread); a result
  that is not proven is reported as "best found" and the gap columns are then upper estimates.

Output: OUT/cut_gaps.csv (one row per instance and configuration: bound, rounds, cuts by family,
LP and separation seconds) and OUT/cut_gaps.md (the table). The instances are written to
OUT/instances/ (plain LOLIB form). --retable rewrites cut_gaps.md from cut_gaps.csv. Options for
the ladder search: --mobius-k 3,5,7 --mobius-rungs 600 --mobius-edge 0.5. --selftest: the checks
above, no LP.
"""

import argparse
import csv
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import highspy
except ImportError:  # pragma: no cover
    highspy = None

EPS = 1e-6
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


# ---------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------

def parse_lolib(path):
    """n x n int matrix from a LOLIB file: optional title line, n (optional: a bare n*n matrix is
    accepted too), n*n integers."""
    with open(path, encoding="latin-1") as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    if lines and not all(re.fullmatch(r"[+-]?\d+", t) for t in lines[0].split()):
        lines = lines[1:]
    tokens = " ".join(lines).split()
    k = int(round(math.sqrt(len(tokens))))
    if k * k == len(tokens) and (len(tokens) == 1 or int(tokens[0]) != k or len(lines) == k):
        n, body = k, tokens                      # no n line (e.g. some Optsicom copies)
    else:
        n = int(tokens[0])
        body = tokens[1:1 + n * n]
    vals = np.array([int(t) for t in body], dtype=np.int64)
    return vals.reshape(n, n)


def write_plain(path, w):
    with open(path, "w") as f:
        f.write("%d\n" % len(w))
        for row in w:
            f.write(" ".join(str(int(v)) for v in row) + "\n")


def random_pairwise(kollective, n, voters, seed, workdir):
    """The driver's random_pairwise matrix (Schulze run, write pairwise: true): counts w[a][b]."""
    out = os.path.join(workdir, "rp_n%d_s%d" % (n, seed))
    os.makedirs(out, exist_ok=True)
    config = os.path.join(out, "gen.yaml")
    with open(config, "w") as f:
        f.write("\n".join([
            "title: random_pairwise matrix for cut_gaps.py", "output: " + json.dumps(out), "runs:",
            "  - name: rp", "    algorithm: schulze",
            "    input: {generator: {model: random_pairwise, alternatives: %d, voters: %d, seed: %d}}" % (n, voters, seed),
            "    write: {ranking: false, pairwise: true}", ""]))
    subprocess.run([kollective, "run", config, "--out", out, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="1"))
    path = os.path.join(out, "rp_pairwise.csv")
    if not os.path.exists(path):
        cands = [p for p in os.listdir(out) if p.endswith("_pairwise.csv")]
        path = os.path.join(out, cands[0])
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    w = np.array([[int(round(float(v))) for v in r[1:]] for r in rows[1:]], dtype=np.int64)
    assert w.shape == (n, n), w.shape
    return w


def peers_tournament(n, seed):
    spec = importlib.util.spec_from_file_location("lop_peers", os.path.join(REPO, "perf", "lop_peers.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return np.array(mod.random_tournament(n, seed), dtype=np.int64)


def kollective_optimum(kollective, name, path, limit, workdir):
    """(distance, proven, seconds) from the driver (method auto, count false, one thread)."""
    out = os.path.join(workdir, "kollective_" + name)
    os.makedirs(out, exist_ok=True)
    config = os.path.join(out, "run.yaml")
    with open(config, "w") as f:
        f.write("\n".join([
            "title: cut_gaps optimum", "output: " + json.dumps(out), "runs:",
            "  - name: opt", "    algorithm: kemeny", "    input: {lolib: %s}" % json.dumps(os.path.abspath(path)),
            "    options: {method: auto, time_limit: %d, count: false}" % int(limit),
            "    repetitions: 1", "    warmup: 0", "    verify: false", "    write: {rankings: false}", ""]))
    subprocess.run([kollective, "run", config, "--out", out, "--quiet"], check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, OMP_NUM_THREADS="1"))
    with open(os.path.join(out, "opt.csv"), newline="") as f:
        row = list(csv.DictReader(f))[-1]
    return int(float(row["distance"])), row["exact"].strip().lower() == "true", float(row["solve_s"])


# ---------------------------------------------------------------------------------------------
# Cuts: a cut is (arcs, rhs, family): sum over arcs (a, b) of x(a, b) <= rhs
# ---------------------------------------------------------------------------------------------

def fence_cut(pales):
    t = len(pales)
    arcs = [(u, l) for u, l in pales]
    arcs += [(pales[j][1], pales[i][0]) for i in range(t) for j in range(t) if i != j]
    return tuple(arcs), t * t - t + 1, "fence"


def max_acyclic(arcs):
    """The largest number of the arcs an ordering of their nodes keeps (DP over subsets)."""
    nodes = sorted({v for a in arcs for v in a})
    pos = {v: i for i, v in enumerate(nodes)}
    m = len(nodes)
    inmask = [0] * m
    for a, b in arcs:
        inmask[pos[b]] |= 1 << pos[a]
    best = [0] * (1 << m)
    for s in range(1, 1 << m):
        top = -1
        rest = s
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            val = best[s ^ low] + bin(inmask[v] & (s ^ low)).count("1")
            if val > top:
                top = val
        best[s] = top
    return best[(1 << m) - 1]


def check_cut(cut, stats):
    arcs, rhs, fam = cut
    nodes = {v for a in arcs for v in a}
    if len(nodes) > 10:
        return True
    top = max_acyclic(arcs)
    stats["checked"] = stats.get("checked", 0) + 1
    if top > rhs:
        raise AssertionError("invalid %s cut: an ordering keeps %d > %d of %r" % (fam, top, rhs, arcs))
    if top < rhs:
        stats["not_tight"] = stats.get("not_tight", 0) + 1
    return True


# ---------------------------------------------------------------------------------------------
# The LP
# ---------------------------------------------------------------------------------------------

class CutLP:
    """min sum_{i<j} (w[j][i] - w[i][j]) x_ij + sum_{i<j} w[i][j] over the cuts added so far."""

    def __init__(self, w):
        self.n = n = len(w)
        self.pidx = -np.ones((n, n), dtype=np.int64)
        iu = np.triu_indices(n, 1)
        self.pidx[iu] = np.arange(len(iu[0]))
        self.iu = iu
        self.const = float(w[iu].sum())
        self.cost = (w.T[iu] - w[iu]).astype(float)
        self.h = highspy.Highs()
        for k, v in (("output_flag", False), ("threads", 1), ("presolve", "off"), ("solver", "simplex"),
                     ("simplex_strategy", 1)):
            self.h.setOptionValue(k, v)
        m = len(self.cost)
        lp = highspy.HighsLp()
        lp.num_col_ = m
        lp.num_row_ = 0
        lp.col_cost_ = self.cost
        lp.col_lower_ = np.zeros(m)
        lp.col_upper_ = np.ones(m)
        self.h.passModel(lp)
        self.rows = []            # the cuts, in row order
        self.lp_seconds = 0.0
        self.solves = 0

    def add(self, cuts):
        if not cuts:
            return
        starts, idx, val, upp = [], [], [], []
        for arcs, rhs, fam in cuts:
            coef = {}
            r = float(rhs)
            for a, b in arcs:
                if a < b:
                    k = self.pidx[a, b]
                    coef[k] = coef.get(k, 0) + 1
                else:
                    k = self.pidx[b, a]
                    coef[k] = coef.get(k, 0) - 1
                    r -= 1
            starts.append(len(idx))
            for k, c in coef.items():
                if c:
                    idx.append(int(k))
                    val.append(float(c))
            upp.append(r)
            self.rows.append((arcs, rhs, fam))
        inf = highspy.kHighsInf
        self.h.addRows(len(upp), np.full(len(upp), -inf), np.array(upp), len(idx), np.array(starts, dtype=np.int32),
                       np.array(idx, dtype=np.int32), np.array(val))

    def solve(self):
        t0 = time.perf_counter()
        self.h.run()
        self.lp_seconds += time.perf_counter() - t0
        self.solves += 1
        status = self.h.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError("LP status %s" % self.h.modelStatusToString(status))
        sol = np.array(self.h.getSolution().col_value)
        self.bound = self.const + float(self.h.getInfo().objective_function_value)
        X = np.zeros((self.n, self.n))
        X[self.iu] = sol
        X = X + np.tril(1.0 - X.T, -1)
        self.X = X
        return self.bound

    def clone(self, w):
        """A new LP with the same rows, warm started from this one's basis."""
        other = CutLP(w)
        other.add(self.rows)
        other.h.setBasis(self.h.getBasis())
        other.solve()
        return other


# ---------------------------------------------------------------------------------------------
# Separation
# ---------------------------------------------------------------------------------------------

def separate_triangles(X, limit):
    """Violated 3-dicycle inequalities x(a,b) + x(b,c) + x(c,a) <= 2, a the smallest node."""
    V = X[:, :, None] + X[None, :, :] + X.T[:, None, :] - 2.0
    a, b, c = np.nonzero(V > EPS)
    keep = (a < b) & (a < c)
    a, b, c = a[keep], b[keep], c[keep]
    viol = V[a, b, c]
    order = np.argsort(-viol)[:limit]
    return [(((int(a[i]), int(b[i])), (int(b[i]), int(c[i])), (int(c[i]), int(a[i]))), 2, "triangle") for i in order]


def separate_fences(X, limit, stats, tmax=6, seed_floor=0.5, max_seeds=400):
    """3-fences exactly over the fractional arcs; t >= 4 by greedy extension of good 3-fences.
    Value of pales P: F(P) = sum_p x_p - sum_{p != q} x(u_p, l_q); violated iff F > 1."""
    frac = (X > EPS) & (X < 1 - EPS)
    A = np.argwhere(frac)
    R = len(A)
    if R < 3:
        return []
    u, l = A[:, 0], A[:, 1]
    x = X[u, l]
    G = X[u[:, None], l[None, :]] + X[u[None, :], l[:, None]]      # x(u_p,l_q) + x(u_q,l_p)
    D = (u[:, None] != u[None, :]) & (u[:, None] != l[None, :]) & (l[:, None] != u[None, :]) & (l[:, None] != l[None, :])
    H = np.where(D, x[:, None] + x[None, :] - G, -np.inf)           # F of the pair: <= 1 (4-dicycle)
    found = []   # (F, (p, q, r))
    for p in range(R - 2):
        up = H[p, p + 1:] - x[p + 1:]
        finite = np.isfinite(up)
        if not finite.any():
            continue
        umax = up[finite].max()
        # F = (H_pq - x_q) + (H_pr - x_r) + H_qr - x_p and H_qr <= 1
        cand = np.nonzero(finite & (up > seed_floor + x[p] - umax - 1.0))[0]
        if len(cand) < 2:
            continue
        sub = cand + p + 1
        S = up[cand][:, None] + up[cand][None, :] + H[np.ix_(sub, sub)] - x[p]
        S[np.tril_indices(len(cand))] = -np.inf
        qi, ri = np.nonzero(S > seed_floor)
        for i, j in zip(qi, ri):
            found.append((float(S[i, j]), (p, int(sub[i]), int(sub[j]))))
    found.sort(key=lambda t: -t[0])
    stats["fence3_candidates"] = stats.get("fence3_candidates", 0) + len(found)
    cuts, seen, use = [], set(), {}

    def add(pales_idx, value):
        key = frozenset(pales_idx)
        if key in seen:
            return
        if any(use.get(p, 0) >= 4 for p in pales_idx):
            return
        seen.add(key)
        for p in pales_idx:
            use[p] = use.get(p, 0) + 1
        cuts.append((value, fence_cut([(int(u[p]), int(l[p])) for p in pales_idx])))

    for value, trip in found:
        if value > 1 + EPS:
            add(trip, value)
    # greedy extension to t >= 4
    for value, trip in found[:max_seeds]:
        P = list(trip)
        nodes = {int(u[p]) for p in P} | {int(l[p]) for p in P}
        F = value
        ok = np.ones(R, dtype=bool)
        for p in P:
            ok &= D[p]
        while len(P) < tmax:
            gain = x - G[P].sum(axis=0)
            gain = np.where(ok, gain, -np.inf)
            s = int(np.argmax(gain))
            if not np.isfinite(gain[s]) or gain[s] <= 1e-9:
                break
            P.append(s)
            ok &= D[s]
            F += float(gain[s])
            if F > 1 + EPS:
                add(tuple(P), F)
    cuts.sort(key=lambda t: -t[0])
    return [c for _, c in cuts[:limit]]


def _minplus(A, B):
    """C = A (min,+) B with the argmin."""
    n = A.shape[0]
    chunk = max(1, 4000000 // max(1, A.shape[1] * B.shape[1]))
    C = np.empty((n, B.shape[1]))
    M = np.empty((n, B.shape[1]), dtype=np.int32)
    for s in range(0, n, chunk):
        T = A[s:s + chunk, :, None] + B[None, :, :]
        M[s:s + chunk] = np.argmin(T, axis=1)
        C[s:s + chunk] = np.take_along_axis(T, M[s:s + chunk][:, None, :], axis=1)[:, 0, :]
    return C, M


def _ladder_valid(rungs, cycles):
    """Conditions of a Möbius ladder (see the module docstring). cycles[i] and cycles[i+1] share
    rungs[i]; cycles[k-1] and cycles[0] share rungs[k-1]."""
    k = len(cycles)
    if len(set(rungs)) != k:
        return False, "repeated rung"
    sets = [set(c) for c in cycles]
    for i in range(k):
        for j in range(i + 1, k):
            common = sets[i] & sets[j]
            if j == i + 1 or (i == 0 and j == k - 1):
                shared = rungs[i] if j == i + 1 else rungs[k - 1]
                if common != {shared}:
                    return False, "consecutive cycles share %d arcs" % len(common)
            elif common:
                return False, "non-consecutive cycles share an arc"
    arcs = set().union(*sets)
    if any((b, a) in arcs for a, b in arcs):
        return False, "opposite arcs"
    nodes = [set(v for a in c for v in a) for c in cycles]
    for i in range(k):
        for j in range(i + 1, k):
            for v in nodes[i] & nodes[j]:
                fwd = all(v in nodes[m] for m in range(i, j + 1))
                back = all(v in nodes[m % k] for m in range(j, k + i + 1))
                if not (fwd or back):
                    return False, "node condition"
    return True, ""


def separate_mobius(X, limit, stats, edge_max=0.5, ks=(3, 5, 7), max_rungs=600):
    """Möbius ladders by closed odd walks of weight < 1/2 in the rung graph."""
    n = len(X)
    rung = np.argwhere((X < 1 - EPS) & ~np.eye(n, dtype=bool))
    a, b = rung[:, 0], rung[:, 1]
    xe = X[a, b]
    R = len(a)
    # 4-dicycle a->b->c->d->a for e = (a,b), f = (c,d) disjoint; 3-dicycle a->b->c->a for f = (b,c)
    # and c->a->b->c for f = (c,a)
    W = np.full((R, R), np.inf)
    disj = (a[:, None] != a[None, :]) & (a[:, None] != b[None, :]) & (b[:, None] != a[None, :]) & (b[:, None] != b[None, :])
    s4 = 3.0 - xe[:, None] - xe[None, :] - X[b[:, None], a[None, :]] - X[b[None, :], a[:, None]]
    W = np.where(disj, s4, W)
    # f starts where e ends (f = (b, c)), c != a: cycle a->b->c->a, closing arc (c, a)
    nxt = (b[:, None] == a[None, :]) & (a[:, None] != b[None, :])
    s3 = 2.0 - xe[:, None] - xe[None, :] - X[b[None, :], a[:, None]]
    W = np.where(nxt, s3, W)
    prv = (a[:, None] == b[None, :]) & (b[:, None] != a[None, :])   # f = (c, a): cycle c->a->b->c
    s3b = 2.0 - xe[:, None] - xe[None, :] - X[b[:, None], a[None, :]]
    W = np.where(prv, s3b, W)
    W = W + (xe[:, None] + xe[None, :]) / 2.0 - 0.5
    W[W >= edge_max] = np.inf
    live = np.nonzero(np.isfinite(W).any(axis=1))[0]
    if len(live) > max_rungs:
        live = live[np.argsort(np.where(np.isfinite(W[live]), W[live], 9).min(axis=1))[:max_rungs]]
    stats["mobius_rungs"] = max(stats.get("mobius_rungs", 0), int(len(live)))
    if len(live) < 3:
        return []
    Wl = W[np.ix_(live, live)]
    # D[len] with (left len, right len, argmin matrix)
    D = {1: (Wl, None)}
    D[2] = _minplus(Wl, Wl) + (1, 1)
    need = sorted(set(ks))
    D[3] = _minplus(D[2][0], Wl) + (2, 1)
    for k in range(5, max(need) + 1, 2):
        D[k] = _minplus(D[k - 2][0], D[2][0]) + (k - 2, 2)

    def path(i, j, k):
        if k == 1:
            return [i, j]
        C, M, left, right = D[k]
        m = int(M[i, j])
        return path(i, m, left)[:-1] + path(m, j, right)

    def cycle_of(e, f):
        (p, q), (r, s) = (int(a[e]), int(b[e])), (int(a[f]), int(b[f]))
        if len({p, q, r, s}) == 4:
            return ((p, q), (q, r), (r, s), (s, p))
        if q == r:
            return ((p, q), (q, s), (s, p))
        return ((r, s), (s, q), (q, r))   # s == p: r -> p -> q -> r

    cuts, seen = [], set()
    for k in need:
        C = D[k][0]
        diag = np.diag(C)
        for i in np.argsort(diag):
            if diag[i] >= 0.5 - EPS:
                break
            walk = path(int(i), int(i), k)[:-1]            # k rungs e_0 .. e_{k-1}, closed
            rungs = [int(live[v]) for v in walk]
            cycles = [cycle_of(rungs[j - 1], rungs[j]) for j in range(k)]   # C_j holds e_{j-1}, e_j
            # cycles[j] holds e_{j-1} and e_j, so cycles[j] and cycles[j+1] share e_j
            ladder_cycles = cycles
            ok, why = _ladder_valid([(int(a[r]), int(b[r])) for r in rungs], ladder_cycles)
            if not ok:
                stats["mobius_rejected_" + why.replace(" ", "_")] = stats.get("mobius_rejected_" + why.replace(" ", "_"), 0) + 1
                continue
            arcs = tuple(sorted(set(x for c in ladder_cycles for x in c)))
            if arcs in seen:
                continue
            seen.add(arcs)
            rhs = len(arcs) - (k + 1) // 2
            lhs = sum(X[p, q] for p, q in arcs)
            if lhs <= rhs + EPS:
                continue
            cuts.append((lhs - rhs, (arcs, rhs, "mobius")))
            threes = sum(1 for c in ladder_cycles if len(c) == 3)
            key = "mobius_k%d_%dx3cyc" % (k, threes)
            stats[key] = stats.get(key, 0) + 1
    cuts.sort(key=lambda t: -t[0])
    return [c for _, c in cuts[:limit]]


# ---------------------------------------------------------------------------------------------
# The experiment
# ---------------------------------------------------------------------------------------------

def triangle_phase(w, tri_limit):
    lp = CutLP(w)
    lp.solve()
    t0 = time.perf_counter()
    sep = 0.0
    rounds = 0
    while True:
        s0 = time.perf_counter()
        cuts = separate_triangles(lp.X, tri_limit)
        sep += time.perf_counter() - s0
        if not cuts:
            break
        lp.add(cuts)
        lp.solve()
        rounds += 1
    return lp, {"rounds": rounds, "sep_s": sep, "wall_s": time.perf_counter() - t0}


def family_phase(base, w, families, rounds, tri_limit, fam_limit, stats, mobius=None):
    t0 = time.perf_counter()
    lp = base.clone(w)
    lp0_seconds = lp.lp_seconds
    sep = 0.0
    counts = {"triangle": 0, "fence": 0, "mobius": 0}
    done = 0
    history = [lp.bound]
    for r in range(rounds):
        s0 = time.perf_counter()
        cuts = separate_triangles(lp.X, tri_limit)
        fam = []
        if "fence" in families:
            fam += separate_fences(lp.X, fam_limit, stats)
        if "mobius" in families:
            fam += separate_mobius(lp.X, fam_limit, stats, **(mobius or {}))
        sep += time.perf_counter() - s0
        for c in fam[:20] + fam[-10:]:
            check_cut(c, stats)
        if not cuts and not fam:
            break
        for c in cuts + fam:
            counts[c[2]] += 1
        lp.add(cuts + fam)
        lp.solve()
        done += 1
        history.append(lp.bound)
    # does the family still find violated cuts at the end?
    return lp, {"rounds": done, "sep_s": sep, "lp_s": lp.lp_seconds - lp0_seconds,
                "wall_s": time.perf_counter() - t0, "counts": counts, "history": history}


def run_instance(name, w, optimum, proven, args):
    print("== %s (n = %d), optimum %s%s" % (name, len(w), optimum, "" if proven else " (best found)"), flush=True)
    base, tri = triangle_phase(w, args.tri_limit)
    rows = [{"instance": name, "n": len(w), "config": "triangle", "bound": base.bound, "rounds": tri["rounds"],
             "triangle_cuts": len(base.rows), "fence_cuts": 0, "mobius_cuts": 0, "lp_s": base.lp_seconds,
             "sep_s": tri["sep_s"], "wall_s": tri["wall_s"], "optimum": optimum, "proven": proven}]
    print("  triangle LP %.3f  (%d rows, %d rounds, LP %.2f s)" % (base.bound, len(base.rows), tri["rounds"], base.lp_seconds), flush=True)
    for config, fams in (("+fence", ("fence",)), ("+mobius", ("mobius",)), ("+both", ("fence", "mobius"))):
        if config[1:] not in args.configs:
            continue
        stats = {}
        mob = {"ks": tuple(int(k) for k in args.mobius_k.split(",")), "max_rungs": args.mobius_rungs,
               "edge_max": args.mobius_edge}
        lp, res = family_phase(base, w, fams, args.rounds, args.tri_limit, args.family_limit, stats, mob)
        c = res["counts"]
        rows.append({"instance": name, "n": len(w), "config": config, "bound": lp.bound, "rounds": res["rounds"],
                     "triangle_cuts": len(base.rows) + c["triangle"], "fence_cuts": c["fence"], "mobius_cuts": c["mobius"],
                     "lp_s": res["lp_s"], "sep_s": res["sep_s"], "wall_s": res["wall_s"], "optimum": optimum,
                     "proven": proven, "stats": json.dumps(stats, sort_keys=True),
                     "history": " ".join("%.2f" % v for v in res["history"])})
        print("  %-8s %.3f  (rounds %d, fences %d, ladders %d, LP %.2f s, separation %.2f s) %s" % (
            config, lp.bound, res["rounds"], c["fence"], c["mobius"], res["lp_s"], res["sep_s"], json.dumps(stats, sort_keys=True)), flush=True)
    for r in rows:
        # no gap when the triangle LP, rounded up, is already the optimum (distances are integers)
        gap = (optimum - base.bound) if optimum is not None else None
        closed = gap is not None and math.ceil(base.bound - 1e-6) >= optimum
        r["gap_closed_pct"] = (100.0 * (r["bound"] - base.bound) / gap) if gap and not closed else None
        r["ceil_bound"] = math.ceil(r["bound"] - 1e-6)
    return rows


def selftest():
    """Validity and facetness of the smallest members, by enumerating every ordering of 6 nodes."""
    import itertools
    n = 6
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]

    def vec(order):
        pos = {v: k for k, v in enumerate(order)}
        return [1 if pos[i] < pos[j] else 0 for i, j in pairs]

    def check(arcs, rhs, what):
        tight = []
        top = 0
        for order in itertools.permutations(range(n)):
            pos = {v: k for k, v in enumerate(order)}
            val = sum(1 for a, b in arcs if pos[a] < pos[b])
            top = max(top, val)
            if val == rhs:
                tight.append(vec(order) + [1])
        rank = np.linalg.matrix_rank(np.array(tight, dtype=float))
        print("%s: max kept %d, rhs %d, %d tight orderings, affine rank %d of %d" % (what, top, rhs, len(tight), rank, len(pairs)))
        assert top == rhs and rank == len(pairs), what

    arcs, rhs, _ = fence_cut([(0, 3), (1, 4), (2, 5)])
    check(arcs, rhs, "3-fence")
    # K_3,3 ladder: 4-dicycles t0->t1->b1->b0->t0, t1->b1 shared, ..., twisted after three
    cycles = [((0, 1), (1, 4), (4, 3), (3, 0)), ((1, 4), (4, 5), (5, 2), (2, 1)), ((5, 2), (2, 3), (3, 0), (0, 5))]
    rungs = [(1, 4), (5, 2), (3, 0)]
    ok, why = _ladder_valid(rungs, cycles)
    assert ok, why
    arcs = sorted(set(x for c in cycles for x in c))
    check(arcs, len(arcs) - 2, "Moebius ladder, 3 4-dicycles (K_3,3)")
    X = np.random.default_rng(1).random((8, 8))
    for cut in [fence_cut([(0, 4), (1, 5), (2, 6), (3, 7)])]:
        assert max_acyclic(cut[0]) == cut[1]
    print("selftest passed")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=False)
    p.add_argument("--kollective", default=os.path.join(REPO, "build", "openmp", "drivers", "kollective"))
    p.add_argument("--random-pairwise", nargs=2, type=int, action="append", default=[], metavar=("N", "SEED"))
    p.add_argument("--voters", type=int, default=100)
    p.add_argument("--peers-tournament", nargs=2, type=int, action="append", default=[], metavar=("N", "SEED"))
    p.add_argument("--lolib", action="append", default=[], metavar="FILE")
    p.add_argument("--optima", help="LOLIB optima table (set,instance,n,optimum,source: LOP values)")
    p.add_argument("--optimum", action="append", default=[], metavar="NAME=D", help="optimal distance (minimisation)")
    p.add_argument("--best-known", action="append", default=[], metavar="NAME=D",
                   help="best distance known, not proven optimal (the gap shares are then lower bounds)")
    p.add_argument("--solve-optimum", action="store_true", help="run the driver for instances without a known optimum")
    p.add_argument("--retable", action="store_true", help="only rewrite OUT/cut_gaps.md from OUT/cut_gaps.csv")
    p.add_argument("--time-limit", type=float, default=400)
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--tri-limit", type=int, default=3000, help="triangle cuts per round at most")
    p.add_argument("--family-limit", type=int, default=300, help="fence / ladder cuts per round at most")
    p.add_argument("--configs", default="fence,mobius,both")
    p.add_argument("--mobius-k", default="3,5,7", help="numbers of dicycles of the ladders searched (odd)")
    p.add_argument("--mobius-rungs", type=int, default=600, help="rungs kept in the min-plus search at most")
    p.add_argument("--mobius-edge", type=float, default=0.5, help="rung-graph edges of weight below this only")
    p.add_argument("--selftest", action="store_true")
    args = p.parse_args(argv)
    if args.selftest:
        selftest()
        return 0
    if not args.out:
        p.error("--out is required")
    if args.retable:
        with open(os.path.join(args.out, "cut_gaps.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            for k in ("n", "optimum", "rounds", "triangle_cuts", "fence_cuts", "mobius_cuts"):
                r[k] = int(r[k]) if r[k] not in ("", None) else None
            for k in ("bound", "gap_closed_pct", "lp_s", "sep_s", "wall_s"):
                r[k] = float(r[k]) if r[k] not in ("", None) else None
            r["proven"] = r["proven"] == "True"
        write_tables(args.out, rows)
        return 0
    if highspy is None:
        sys.exit("needs highspy (pip install highspy)")
    os.makedirs(os.path.join(args.out, "instances"), exist_ok=True)
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    instances = []
    for n, seed in args.random_pairwise:
        instances.append(("rp_n%d_s%d" % (n, seed), random_pairwise(args.kollective, n, args.voters, seed, work)))
    for n, seed in args.peers_tournament:
        instances.append(("peers_n%d_s%d" % (n, seed), peers_tournament(n, seed)))
    for path in args.lolib:
        name = os.path.basename(path)
        for ext in (".lop", ".mat", ".txt", ".dat"):
            if name.endswith(ext):
                name = name[:-len(ext)]
        instances.append((name, parse_lolib(path)))
    known = {}
    for item in args.optimum:
        k, v = item.split("=", 1)
        known[k] = (int(v), True)
    for item in args.best_known:
        k, v = item.split("=", 1)
        known[k] = (int(v), False)
    lop_optima = {}
    if args.optima:
        with open(args.optima, newline="") as f:
            for row in csv.DictReader(f):
                lop_optima[row["instance"]] = int(row["optimum"])
    all_rows = []
    for name, w in instances:
        np.fill_diagonal(w, 0)
        path = os.path.join(args.out, "instances", name + ".lop")
        write_plain(path, w)
        total = int(w.sum())
        if name in known:
            optimum, proven = known[name]
        elif name in lop_optima:
            optimum, proven = total - lop_optima[name], True
        elif args.solve_optimum:
            optimum, proven, secs = kollective_optimum(args.kollective, name, path, args.time_limit, work)
            print("  kollective: distance %d, proven %s, %.1f s" % (optimum, proven, secs), flush=True)
        else:
            optimum, proven = None, False
        all_rows += run_instance(name, w, optimum, proven, args)
        write_tables(args.out, all_rows)
    return 0


FIELDS = ["instance", "n", "config", "optimum", "proven", "bound", "ceil_bound", "gap_closed_pct", "rounds",
          "triangle_cuts", "fence_cuts", "mobius_cuts", "lp_s", "sep_s", "wall_s", "stats", "history"]


def write_tables(out, rows):
    with open(os.path.join(out, "cut_gaps.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        wr.writeheader()
        for r in rows:
            wr.writerow({k: (("%.10g" % v) if isinstance(v, float) else v) for k, v in r.items()})
    by = {}
    for r in rows:
        by.setdefault(r["instance"], {})[r["config"]] = r
    lines = ["| instance | n | optimum D* | triangle LP | +fence (closed) | +Möbius (closed) | +both (closed) | cuts added: fence / ladder (alone); tri / fence / ladder (both) | rounds: fence / Möbius / both | LP s: tri / fence / Möbius / both | separation s: fence / Möbius / both |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|---|---|"]
    for name, c in by.items():
        t = c["triangle"]

        def cell(k):
            if k not in c:
                return "-"
            r = c[k]
            pct = r["gap_closed_pct"]
            return "%.1f (%s)" % (r["bound"], "no gap" if pct is None else "%.1f%%" % pct)
        both = c.get("+both", t)
        fam = lambda k, f: str(c[k][f]) if k in c else "-"
        lines.append("| %s | %d | %s%s | %.1f | %s | %s | %s | %s / %s; %d / %d / %d | %s | %s | %s |" % (
            name, t["n"], t["optimum"], "" if t["proven"] else " (best known)", t["bound"], cell("+fence"), cell("+mobius"),
            cell("+both"), fam("+fence", "fence_cuts"), fam("+mobius", "mobius_cuts"),
            both["triangle_cuts"], both["fence_cuts"], both["mobius_cuts"],
            " / ".join(fam(k, "rounds") for k in ("+fence", "+mobius", "+both")),
            " / ".join("%.1f" % c[k]["lp_s"] if k in c else "-" for k in ("triangle", "+fence", "+mobius", "+both")),
            " / ".join("%.1f" % c[k]["sep_s"] if k in c else "-" for k in ("+fence", "+mobius", "+both"))))
    with open(os.path.join(out, "cut_gaps.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
