"""Certificates of exact Kemeny results (issue #36): kollective writes them for the runs of
certificates/certificates.yaml, python/kollective/certificate.py certifies each, and rejects each
tampered copy (a multiplier changed or negative, cuts dropped, a leaf removed or claimed empty, a
child missing, the ranking swapped, a fixed pair reversed, a distance raised) with a message naming what failed.

    python3 check_certificates.py KOLLECTIVE OUT_DIR
"""

import copy
import csv
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "kollective"))
import certificate as checker  # noqa: E402  (the standalone module, not the compiled package)

INPUTS = {  # run -> its input, as the checker reads it
    "mixture_30": "{out}/mixture_30_input.soc",
    "tournament_25": "{out}/tournament_25_input.csv",
    "tournament_25_ladders": "{out}/tournament_25_ladders_input.csv",
    "tournament_25_fences": "{out}/tournament_25_fences_input.csv",
    "weights_14": os.path.join(HERE, "certificates", "signed_14.mat"),
    "ballots_4": os.path.join(HERE, "heuristic_4.soc"),
    "ballots_dp": os.path.join(HERE, "heuristic_4.soc"),
}
failures = []


def expect(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def outcome(input_path, cert):
    try:
        return "certified", checker.check(input_path, cert)
    except checker.Rejected as e:
        return "rejected", str(e)
    except checker.NotCertified as e:
        return "not certified", str(e)


def rejected(input_path, cert, what, words):
    status, message = outcome(input_path, cert)
    expect(status == "rejected" and words in message, f"{what}: rejected naming '{words}' ({status}: {message})")


def searched_component(cert):
    return next(c for c in cert["components"] if c["method"] in ("lp", "branch-and-cut"))


def most_slack(row, fixed, index):
    """The largest slack of a triangle row [i, j, k, upper, weight] over the rankings' values of its
    pairs, those in `fixed` (column -> x) at their values and the others at 0 or 1."""
    i, j, k, upper, _ = row
    ij, jk, ik = (fixed.get(index[pair]) for pair in ((i, j), (j, k), (i, k)))
    low = lambda x: 0 if x is None else x  # noqa: E731
    high = lambda x: 1 if x is None else x  # noqa: E731
    if upper:  # x_ij + x_jk - x_ik <= 1
        return 1 - low(ij) - low(jk) + high(ik)
    return high(ij) + high(jk) - low(ik)  # x_ik - x_ij - x_jk <= 0


def slack_row_at_a_leaf(component):
    """(rows index, row) of the heaviest triangle row that can be slack at some bound leaf, the
    leaf's fixings taken as the checker takes them (the root's fixed pairs, then each branch's)."""
    index = {pair: c for c, pair in enumerate(checker.column_pairs(len(component["alternatives"])))}
    root = {index[(min(a, b), max(a, b))]: int(a < b) for a, b, *_ in component.get("fixed_pairs", [])}
    nodes, rows = component["proof"]["nodes"], component["proof"]["rows"]
    stack = [(0, root)]
    while stack:
        name, fixed = stack.pop()
        node = nodes[name]
        if node["kind"] == "bound" and node["rows"] >= 0:
            listed = rows[node["rows"]]
            for k in sorted(range(len(listed)), key=lambda k: -listed[k][-1]):
                if listed[k][0] != "ladder" and listed[k][-1] > 0 and most_slack(listed[k], fixed, index) >= 1:
                    return node["rows"], k
        if node["kind"] != "branch":
            continue
        fixed = dict(fixed)
        for pair, value in node.get("fixed_at_lean", []):
            fixed[index[tuple(pair)]] = value
        for value in (0, 1):
            stack.append((node["children"][value], {**fixed, index[tuple(node["pair"])]: value}))
    raise AssertionError("no leaf holds a row that can be slack")


def tamper(input_path, cert, run):
    # A ranking swapped: two neighbours whose order costs something.
    swapped = copy.deepcopy(cert)
    r = swapped["ranking"]
    r[0], r[1] = r[1], r[0]
    status, message = outcome(input_path, swapped)
    expect(status == "rejected" and "distance" in message, f"{run}: ranking swapped: {status}: {message}")
    component = searched_component(cert)
    rows_index, heaviest = slack_row_at_a_leaf(component)
    # One multiplier changed: a row's weight times 10^6, at a leaf where the row can be slack (by
    # s >= 1): the leaf's bound then falls by about 10^6 w s, far below the distance. (A row whose
    # pairs the leaf's fixings hold tight bounds nothing there, whatever its weight.)
    changed = copy.deepcopy(cert)
    searched_component(changed)["proof"]["rows"][rows_index][heaviest][-1] *= 10**6
    rejected(input_path, changed, f"{run}: multiplier raised", "below the distance")
    # A cut dropped: the heaviest row of each node's rows taken out (one cut where one LP proved it).
    dropped = copy.deepcopy(cert)
    for rows in searched_component(dropped)["proof"]["rows"]:
        rows.remove(max(rows, key=lambda row: row[-1]))
    rejected(input_path, dropped, f"{run}: cut dropped", "below")
    # A negative multiplier.
    negative = copy.deepcopy(cert)
    searched_component(negative)["proof"]["rows"][rows_index][heaviest][-1] = -1
    rejected(input_path, negative, f"{run}: negative multiplier", "weight >= 0")
    # A component's distance raised: no leaf reaches it.
    raised = copy.deepcopy(cert)
    searched_component(raised)["distance_doubled"] += 2
    raised["distance_doubled"] += 2
    rejected(input_path, raised, f"{run}: distance raised", "")
    # A component's distance that is not an integer (NaN would compare false with every bound).
    for value in (float("nan"), 1e300, True):
        odd = copy.deepcopy(cert)
        searched_component(odd)["distance_doubled"] = value
        rejected(input_path, odd, f"{run}: component distance {value!r}", "not an integer")
    # A fixed pair's rule claimed where it does not hold.
    pairs = component.get("fixed_pairs", [])
    if pairs:
        false_rule = copy.deepcopy(cert)
        a, b = searched_component(false_rule)["fixed_pairs"][0][:2]
        searched_component(false_rule)["fixed_pairs"][0] = [b, a, "exchange"]
        rejected(input_path, false_rule, f"{run}: fixed pair reversed", "exchange rule does not hold")
    grouped = [k for k, pair in enumerate(pairs) if pair[2] == "grouping"]
    if grouped:  # a grouping pair reversed, with the other side of its cut (b's, without a)
        reversed_cut = copy.deepcopy(cert)
        listed = searched_component(reversed_cut)["fixed_pairs"]
        a, b, _, side = listed[grouped[0]]
        listed[grouped[0]] = [b, a, "grouping", [t for t in range(len(component["alternatives"])) if t not in side]]
        rejected(input_path, reversed_cut, f"{run}: grouping pair reversed", "grouping rule does not hold")
        lopsided = copy.deepcopy(cert)  # a side that holds b
        searched_component(lopsided)["fixed_pairs"][grouped[0]][3] = side + [b]
        rejected(input_path, lopsided, f"{run}: grouping side holding b", "not a set")


def remove_leaf(input_path, cert, run):
    removed = copy.deepcopy(cert)
    nodes = searched_component(removed)["proof"]["nodes"]
    branch = next(node for node in nodes if node["kind"] == "branch")
    leaf = branch["children"][1]
    nodes[leaf] = {"kind": "removed"}
    rejected(input_path, removed, f"{run}: a leaf removed", "unknown kind")
    unlinked = copy.deepcopy(cert)
    nodes = searched_component(unlinked)["proof"]["nodes"]
    next(node for node in nodes if node["kind"] == "branch")["children"][1] = len(nodes)
    rejected(input_path, unlinked, f"{run}: a child missing", "missing")
    cut = copy.deepcopy(cert)
    nodes = searched_component(cut)["proof"]["nodes"]
    leaf = next(k for k, node in enumerate(nodes) if node["kind"] == "bound")
    nodes[leaf] = {"kind": "cycle", "rows": -1}
    rejected(input_path, cut, f"{run}: a leaf claimed empty", "no cycle")


def facet_rows(out, run, kind, version, break_row, words):
    """The run with ladders or fences (`kind`): its certificate says `version` and holds rows of
    that kind that bound leaves, and one row broken by break_row (a structure the checker must
    refuse) is rejected naming `words`."""
    input_path = INPUTS[run].format(out=out)
    with open(os.path.join(out, run + "_certificate.json"), encoding="utf-8") as f:
        cert = json.load(f)
    proof = searched_component(cert)["proof"]
    leaves = {node["rows"] for node in proof["nodes"] if node["kind"] == "bound"}  # the rows a leaf is bounded by
    rows = [(n, k) for n, rows in enumerate(proof["rows"]) for k, row in enumerate(rows) if row[0] == kind and n in leaves]
    expect(cert["version"] == version and rows, f"{run}: version {cert['version']}, {len(rows)} {kind} rows")
    if not rows:
        return
    broken = copy.deepcopy(cert)
    n, k = rows[0]
    what = break_row(searched_component(broken)["proof"]["rows"][n][k][1])
    rejected(input_path, broken, f"{run}: {what}", words)


def equal_cycles(cycles):
    cycles[1] = list(cycles[0])  # the first two cycles now share every arc
    return "two cycles of a ladder made equal"


def shared_alternative(pales):
    pales[1][0] = pales[0][0]
    return "two pales sharing an alternative"


def planted(kollective, out):
    """A component above branch and cut's 300 alternatives whose optimum the greedy dual's bound
    proves: weights that keep the order 0, 1, ..., n - 1 except each pair (p, p + 2), which leans
    back by 2, while each neighbour pair leans forward by 4, enough for the two triangles through
    it. Auto's anytime answer is exact there, and its certificate (one node, the greedy's rows)
    must check and fail when tampered."""
    n, run = 301, "planted_301"
    weights = [[0] * n for _ in range(n)]
    for p in range(n):
        for q in range(p + 1, n):
            if q == p + 2:
                weights[q][p] = 2
            else:
                weights[p][q] = 4 if q == p + 1 else 2
    input_path = os.path.join(out, run + ".mat")
    with open(input_path, "w", encoding="utf-8") as f:
        f.write(f"{n}\n" + "\n".join(" ".join(map(str, row)) for row in weights) + "\n")
    config = os.path.join(out, run + ".yaml")
    with open(config, "w", encoding="utf-8") as f:
        f.write(f"runs:\n  - name: {run}\n    algorithm: kemeny\n    input: {{lolib: {run}.mat}}\n"
                f"    options: {{time_limit: 3, count: false}}\n    write: {{certificate: true}}\n")
    subprocess.run([kollective, "run", config, "--out", os.path.join(out, run), "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, run, run + "_certificate.json"), encoding="utf-8") as f:
        cert = json.load(f)
    methods = [(c["method"], len(c["alternatives"])) for c in cert["components"]]
    expect(methods == [("lp", n)], f"{run}: one component of {n} proven by its bound alone: {methods}")
    with open(os.path.join(out, run, run + ".csv"), encoding="utf-8") as f:
        row = next(csv.DictReader(f))
    expect((row["exact"], row["optimal_rankings"], row["count_known"]) == ("true", "1", "false"),
           f"{run}: exact, one optimal ranking listed, not counted: {row['exact']}, {row['optimal_rankings']}, "
           f"{row['count_known']}")
    status, message = outcome(input_path, cert)
    expect(status == "certified", f"{run}: {status}: {message}")
    tamper(input_path, cert, run)


def main():
    kollective, out = sys.argv[1], sys.argv[2]
    shutil.rmtree(out, ignore_errors=True)
    # 100 MB of memory for the solves: the subset DP of tournament_25 (128 MiB) does not fit, so auto
    # proves it by branch and cut on every device (on a GPU the DP, expected to finish first, would
    # take over from a search not yet done).
    environment = dict(os.environ, KOLLECTIVE_MEMORY_LIMIT="100000000")
    subprocess.run([kollective, "run", os.path.join(HERE, "certificates", "certificates.yaml"), "--out", out, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL, env=environment)
    for run, pattern in INPUTS.items():
        input_path = pattern.format(out=out)
        with open(os.path.join(out, run + "_certificate.json"), encoding="utf-8") as f:
            cert = json.load(f)
        status, message = outcome(input_path, cert)
        expect(status == "certified", f"{run}: {status}: {message}")
        if any(c["method"] in ("lp", "branch-and-cut") for c in cert["components"]):
            tamper(input_path, cert, run)
        if any(c["method"] == "branch-and-cut" for c in cert["components"]):
            remove_leaf(input_path, cert, run)
    # Version 5 (the bounds rounded to the distances' step: 2 here, of doubled counts) over 2 (ladders) and 4 (fences).
    facet_rows(out, "tournament_25_ladders", "ladder", 5, equal_cycles, "share")
    facet_rows(out, "tournament_25_fences", "fence", 5, shared_alternative, "not distinct")
    grouping = [run for run in INPUTS for c in json.load(open(os.path.join(out, run + "_certificate.json")))["components"]
                if any(pair[2] == "grouping" for pair in c.get("fixed_pairs", []))]
    expect(grouping, "a run's certificate holds pairs fixed by the grouping rule (tampered above)")
    methods = {c["method"] for run in INPUTS for c in json.load(open(os.path.join(out, run + "_certificate.json")))["components"]}
    expect({"lp", "branch-and-cut", "dp", "trivial"} <= methods, f"the runs cover lp, branch-and-cut, dp and trivial: {sorted(methods)}")
    planted(kollective, out)
    # The command-line checker: exit 0 certified, 1 rejected.
    script = os.path.join(HERE, "..", "..", "python", "kollective", "certificate.py")
    good = subprocess.run([sys.executable, script, INPUTS["weights_14"], os.path.join(out, "weights_14_certificate.json")])
    expect(good.returncode == 0, f"certificate.py exits 0 on a good certificate (got {good.returncode})")
    bad = subprocess.run([sys.executable, script, INPUTS["ballots_4"], os.path.join(out, "weights_14_certificate.json")],
                         capture_output=True, text=True)
    expect(bad.returncode in (1, 2) and bad.stderr, f"certificate.py refuses another input's certificate: {bad.stderr.strip()}")
    # A certificate that is not JSON the checker can use: exit 2, no traceback.
    for name, text in (("nan", '{"format": "kollective-kemeny-certificate", "version": 1, "distance_doubled": NaN}'),
                       ("list", "[1, 2]"), ("nodes", '{"format": "kollective-kemeny-certificate", "version": 1}')):
        path = os.path.join(out, f"broken_{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        broken = subprocess.run([sys.executable, script, INPUTS["weights_14"], path], capture_output=True, text=True)
        expect(broken.returncode == 2 and "Traceback" not in broken.stderr,
               f"certificate.py exits 2 on a broken certificate ({name}): {broken.stderr.strip()}")
    print(f"{len(failures)} failed" if failures else "certificates: every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
