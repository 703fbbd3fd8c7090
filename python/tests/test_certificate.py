"""The pure-Python certificate checker as the installed package holds it (kollective.certificate):
a small hand-made certificate is certified, and tampered copies are rejected."""

import copy

import pytest

from kollective import certificate


def three_way_certificate(version, distance_doubled, rows, node_rows):
    """A certificate of the ranking a, b, c over counts of three alternatives, one LP component
    whose root is bounded by `rows` (the proof's rows[node_rows]; -1: none)."""
    return {
        "format": "kollective-kemeny-certificate", "version": version, "price_bits": 32,
        "input_format": "matrix-counts", "alternatives": 3, "names": ["a", "b", "c"],
        "distance_doubled": distance_doubled, "ranking": [0, 1, 2],
        "components": [
            {"alternatives": [0, 1, 2], "method": "lp", "distance_doubled": distance_doubled, "fixed_pairs": [],
             "proof": {"rows": rows, "nodes": [{"kind": "bound", "rows": node_rows}]}},
        ],
    }


def preflib_certificate(names, ranking, distance_doubled):
    """A certificate of `ranking` over a PrefLib input whose Condorcet components are single
    alternatives (each trivially optimal), as Kollective writes one for such an election."""
    return {
        "format": "kollective-kemeny-certificate", "version": 5, "price_bits": 32, "input_format": "preflib",
        "alternatives": len(names), "names": names, "distance_doubled": distance_doubled, "ranking": ranking,
        "components": [{"alternatives": [a], "method": "trivial", "distance_doubled": 0} for a in ranking]}


@pytest.fixture
def election(tmp_path):
    # 0 beats 1 by 5 to 3, 1 beats 2 by 6 to 2, 0 beats 2 by 7 to 1: the order 0 > 1 > 2, distance 6.
    path = tmp_path / "counts.csv"
    path.write_text(",a,b,c\na,0,5,7\nb,3,0,6\nc,1,2,0\n")
    return str(path), three_way_certificate(1, 12, [], -1)


def test_a_met_bound_is_certified(election):
    path, cert = election
    assert certificate.check(path, cert).startswith("certified")


def test_tampered_certificates_are_rejected(election):
    path, cert = election
    swapped = copy.deepcopy(cert)
    swapped["ranking"] = [1, 0, 2]
    with pytest.raises(certificate.Rejected, match="distance"):
        certificate.check(path, swapped)
    raised = copy.deepcopy(cert)
    raised["components"][0]["distance_doubled"] = 14
    raised["distance_doubled"] = 14
    with pytest.raises(certificate.Rejected):
        certificate.check(path, raised)
    nan = copy.deepcopy(cert)
    nan["components"][0]["distance_doubled"] = float("nan")
    with pytest.raises(certificate.Rejected, match="not an integer"):
        certificate.check(path, nan)


def test_a_bound_rounds_up_to_the_distances_step(tmp_path):
    # A cycle a > b > c > a, each 5 to 3: every pair's counts sum to 8, so (doubled) distances lie
    # a multiple of 4 apart; the optimum breaks one pair, 11 (22 doubled). Half the triangle's
    # price bounds 20 doubled, which no ranking has: the next distance, 22, is proven. No price
    # leaves the pairwise bound, 18, which is a distance and proves nothing more.
    path = tmp_path / "cycle.csv"
    path.write_text(",a,b,c\na,0,5,3\nb,3,0,5\nc,5,3,0\n")
    cert = three_way_certificate(5, 22, [[[0, 1, 2, 1, 2 << 32]]], 0)
    assert certificate.check(str(path), cert).startswith("certified")
    unpriced = copy.deepcopy(cert)
    unpriced["components"][0]["proof"]["rows"] = [[[0, 1, 2, 1, 0]]]
    with pytest.raises(certificate.Rejected, match="its bound 18 is below the distance 22"):
        certificate.check(str(path), unpriced)


@pytest.mark.parametrize(
    "text",
    [
        "3\n0 5 -7\n3 0 6\n1 2 0\n",  # n and the matrix alone
        "tiny\n3\n0 5 -7 3 0\n6 1 2 0\n",  # a name line, rows wrapped anywhere
        "tiny\n3\n0 5 -7\n3 0 6\n1 2 0\ntiny\n",  # the name again after the matrix
        "3 0 5 -7 3 0 6 1 2 +0\n",  # one line, a plus sign
    ],
)
def test_lolib_files_read_alike_by_both_readers(tmp_path, text, monkeypatch):
    path = tmp_path / "tiny.mat"
    path.write_text(text)
    read = certificate.read_lolib(str(path))
    monkeypatch.setattr(certificate, "lolib_plain", lambda text: None)  # the line-by-line reading only
    assert certificate.read_lolib(str(path)) == read
    margins = read[0]
    assert margins[0][1] == 2 * (5 - 3) and margins[2][0] == 2 * (1 - -7) and read[1] == 2 * (3 - 7 + 2)


@pytest.mark.parametrize(
    "text, message",
    [
        ("3\n0 5 7\n3 0 6\n1 2\n", "not n followed by n x n integers"),
        ("3\n0 5 1_0\n3 0 6\n1 2 0\n", "'1_0' is not an integer"),
        ("3\n0 5 2147483648\n3 0 6\n1 2 0\n", "'2147483648' is not an integer"),
        ("3\n0 5 7\n3 0 6\n1 2 0\n4\n", "more than the 3 x 3 values"),
        ("3\n0 5 +-7\n3 0 6\n1 2 0\n", "'\\+-7' is not an integer"),
    ],
)
def test_malformed_lolib_files_are_refused_with_their_line(tmp_path, text, message):
    path = tmp_path / "bad.mat"
    path.write_text(text)
    with pytest.raises(certificate.Unreadable, match=message):
        certificate.read_lolib(str(path))


# Möbius ladder rows (certificate version 2): odd sequences of 3- and 4-dicycles, consecutive ones
# sharing one arc (a rung). The 3-fence (three 4-dicycles through the pales 0-3, 1-4, 2-5) and a
# ladder of five cycles (four triangles and a 4-dicycle).
FENCE = ["ladder", [[0, 3, 1, 4], [1, 4, 2, 5], [2, 5, 0, 3]], 1]
FIVE = ["ladder", [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 0, 1]], 1]


def orderings(m):
    import itertools

    return itertools.permutations(range(m))


def optimum(o):
    """The least distance of any ordering of o's m alternatives, by enumeration."""
    m = len(o)
    return min(sum(o[order[q]][order[p]] for p in range(m) for q in range(p + 1, m)) for order in orderings(m))


@pytest.mark.parametrize("row, rhs", [(FENCE, 7), (FIVE, 8)])
def test_a_ladder_holds_for_every_ordering_and_is_tight(row, rhs):
    arcs, found_rhs, _ = certificate.ladder_row(row, 6)
    assert found_rhs == rhs
    kept = []
    for order in orderings(6):
        place = {a: p for p, a in enumerate(order)}
        kept.append(sum(place[a] < place[b] for a, b in arcs))
    assert max(kept) == rhs  # valid, and some ordering meets it


def test_ladder_weights_never_bound_above_the_optimum():
    # Any weights >= 0 on valid rows give a lower bound: random counts, every ordering scored.
    import random

    rng = random.Random(5)
    for _ in range(20):
        o = [[0 if a == b else rng.randint(0, 9) for b in range(6)] for a in range(6)]
        best = optimum(o)
        component = certificate.Component(o, list(range(6)), 8)
        rows = [[FENCE[0], FENCE[1], rng.randint(0, 3 << 8)], [FIVE[0], FIVE[1], rng.randint(0, 3 << 8)],
                [0, 1, 2, 1, rng.randint(0, 1 << 8)], [1, 3, 5, 0, rng.randint(0, 1 << 8)]]
        assert component.bound(("r", _), rows, {}) <= best


def test_a_ladder_lifts_the_bound_past_the_triangles():
    # Counts of 2 on every fence arc: an ordering keeps at most 7 of the 9, so its distance is at
    # least 4, which the ladder's row proves alone; the LP of every triangle reaches only 3 here
    # (solved with HiGHS when this test was written).
    arcs, _, _ = certificate.ladder_row(FENCE, 6)
    o = [[0] * 6 for _ in range(6)]
    for a, b in arcs:
        o[a][b] = 2  # dropping the arc a -> b (b before a) costs o[a][b]
    best = optimum(o)
    assert best == 4
    component = certificate.Component(o, list(range(6)), 8)
    assert component.bound("fence", [["ladder", FENCE[1], 2 << 8]], {}) == 4


@pytest.mark.parametrize(
    "row, words",
    [
        (["ladder", [[0, 1, 2], [1, 2, 3]], 1], "odd number"),
        (["ladder", [[0, 1, 2], [2, 3, 4], [4, 5, 0]], 1], "share 0 arcs"),  # vertices, not arcs
        (["ladder", [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [5, 0, 1]], 1], "cycles 3 and 4 share 0 arcs, not 1"),
        (["ladder", [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 0, 1], [4, 5, 3]], 1], "cycles 0 and 3 share 1 arcs, not 0"),
        (["ladder", [[0, 1, 1]], 1], "distinct"),
        (["ladder", [[0, 1, 6]], 1], "of 0..5"),
        (["ladder", [[0, 1, 2]], -1], "weight >= 0"),
        (["ladder", [[0, 1, 2, 3], [0, 1, 4, 5], [0, 1, 2, 5]], 1], "share"),
    ],
)
def test_malformed_ladders_are_rejected(row, words):
    with pytest.raises(certificate.Rejected, match=words):
        certificate.ladder_row(row, 6)


# Fence rows (certificate version 4): t >= 3 pales [u, l] over 2t distinct alternatives.
FENCES = [["fence", [[0, 3], [1, 4], [2, 5]], 1], ["fence", [[6, 1], [0, 7], [2, 4], [5, 3]], 1]]


@pytest.mark.parametrize("row, m, rhs", [(FENCES[0], 6, 7), (FENCES[1], 8, 13)])
def test_a_fence_holds_for_every_ordering_and_is_tight(row, m, rhs):
    arcs, found_rhs, _ = certificate.fence_row(row, m)
    assert found_rhs == rhs and len(arcs) == len(row[1]) ** 2
    kept = []
    for order in orderings(m):
        place = {a: p for p, a in enumerate(order)}
        kept.append(sum(place[a] < place[b] for a, b in arcs))
    assert max(kept) == rhs  # valid, and some ordering meets it


def test_the_three_fence_is_the_ladder_of_three_four_cycles():
    fence, fence_rhs, _ = certificate.fence_row(FENCES[0], 6)
    ladder, ladder_rhs, _ = certificate.ladder_row(FENCE, 6)
    assert sorted(fence) == sorted(ladder) and fence_rhs == ladder_rhs


def test_fence_weights_never_bound_above_the_optimum():
    import random

    rng = random.Random(7)
    for _ in range(5):
        o = [[0 if a == b else rng.randint(0, 9) for b in range(8)] for a in range(8)]
        best = optimum(o)
        component = certificate.Component(o, list(range(8)), 8)
        rows = [["fence", FENCES[1][1], rng.randint(0, 3 << 8)], ["fence", FENCES[0][1], rng.randint(0, 3 << 8)],
                [0, 1, 2, 1, rng.randint(0, 1 << 8)]]
        assert component.bound(("f", _), rows, {}) <= best


@pytest.mark.parametrize(
    "row, words",
    [
        (["fence", [[0, 3], [1, 4]], 1], "3 or more pales"),
        (["fence", [[0, 3], [1, 4], [2, 3]], 1], "not distinct"),
        (["fence", [[0, 3], [1, 4], [2, 2]], 1], "not distinct"),
        (["fence", [[0, 3], [1, 4], [2, 6]], 1], "0..5"),
        (["fence", [[0, 3], [1, 4], [2]], 1], "pales"),
        (["fence", [[0, 3], [1, 4], [2, 5]], -1], "weight >= 0"),
        (["fence", [[0, 3], [1, 4], [2, 5.0]], 1], "pales"),
    ],
)
def test_malformed_fences_are_rejected(row, words):
    with pytest.raises(certificate.Rejected, match=words):
        certificate.fence_row(row, 6)


def test_an_arc_in_three_cycles_is_rejected():
    # Three triangles through the one arc 0 -> 1: each pair shares exactly it, but one dropped arc breaks all three.
    with pytest.raises(certificate.Rejected, match="three cycles"):
        certificate.ladder_row(["ladder", [[0, 1, 2], [0, 1, 3], [0, 1, 4]], 1], 6)


# What an audit of the checker forged or broke (session 45): each must be refused, by name.


def test_a_fixed_value_must_be_an_integer(election):
    # A float 1.0 carried the bound's exact sums into floating point, where a forged row of weight
    # near 2^62 rounded a bound up past the optimum.
    path, cert = election
    cert["components"][0]["proof"]["nodes"] = [
        {"kind": "branch", "rows": -1, "pair": [1, 2], "children": [1, 2], "fixed_at_lean": [[[0, 1], 1.0]]},
        {"kind": "bound", "rows": -1}, {"kind": "bound", "rows": -1}]
    with pytest.raises(certificate.Rejected, match="cannot be fixed to 1.0"):
        certificate.check(path, cert)


def test_names_and_sizes_come_from_the_input(election, tmp_path):
    path, cert = election
    reversed_names = copy.deepcopy(cert)
    reversed_names["names"] = ["c", "b", "a"]
    with pytest.raises(certificate.Rejected, match="alternative 1 is 'a' in the input, 'c' in the certificate"):
        certificate.check(path, reversed_names)
    ballots = tmp_path / "ballots.soc"
    ballots.write_text("# NUMBER ALTERNATIVES: 3\n2: 1,2,3\n1: 3,2,1\n")
    as_preflib = copy.deepcopy(cert)
    as_preflib.update(input_format="preflib", alternatives=4, names=["1", "2", "3", "ghost"])
    with pytest.raises(certificate.Rejected, match="the input has 3 alternatives, the certificate 4"):
        certificate.check(str(ballots), as_preflib)
    headerless = tmp_path / "headerless.soc"
    headerless.write_text("2: 1,2,3\n1: 3,2,1\n")
    with pytest.raises(certificate.Unreadable, match="expected '# KEY: value' header lines or the number"):
        certificate.check(str(headerless), as_preflib)
    # PrefLib ballots are no matrix: their header lines are comments there, and a ballot is no row.
    with pytest.raises(certificate.Unreadable, match="is not a count"):
        certificate.check(str(ballots), cert)
    assert "read as matrix-counts (3 alternatives" in certificate.check(path, cert)


def test_every_stated_component_distance_is_checked(election):
    path, cert = election
    split = copy.deepcopy(cert)
    split["components"] = [{"alternatives": [a], "method": "trivial", "distance_doubled": 0} for a in range(3)]
    split["components"][2]["distance_doubled"] = 123456
    with pytest.raises(certificate.Rejected, match="the ranking's distance inside it is 0, not 123456"):
        certificate.check(path, split)


def test_malformed_parts_are_refused_even_where_no_node_reads_them(election, tmp_path):
    path, cert = election
    unused = copy.deepcopy(cert)
    unused["components"][0]["proof"]["rows"] = [[["ladder", [[[0], 1, 2]], 1]]]
    with pytest.raises(certificate.Rejected, match="is not 3 or 4 distinct"):
        certificate.check(path, unused)
    for broken, words in (({"version": 1.0}, "not a version 1 to 5"), ({"ranking": None}, "'ranking' is missing"),
                          ({"components": [{"alternatives": [0, 1, 2], "method": "lp", "distance_doubled": 12}]},
                           "its proof is not")):
        with pytest.raises(certificate.Unreadable, match=words):
            certificate.check(path, {**cert, **broken})
    repeated = tmp_path / "repeated.json"
    repeated.write_text('{"format": "kollective-kemeny-certificate", "version": 1, "version": 2}')
    with pytest.raises(certificate.Unreadable, match="repeats the key 'version'"):
        certificate.load(str(repeated))
    assert certificate.main(["certificate.py", path, str(repeated)]) == 2


def test_lines_end_where_kollective_ends_them(tmp_path):
    # A lone CR ends no line for Kollective's readers: "# TITLE: t\r9: 3,2,1" is one header line,
    # not a header and 9 hidden ballots that certify the reverse order.
    ballots = tmp_path / "hidden.soc"
    ballots.write_bytes(b"# NUMBER ALTERNATIVES: 3\n# TITLE: t\r9: 3,2,1\n3: 1,2,3\n")
    forged = preflib_certificate(["1", "2", "3"], [2, 1, 0], 18)
    with pytest.raises(certificate.Rejected, match="the components prove only 0"):  # 3 voters for 1, 2, 3
        certificate.check(str(ballots), forged)
    late = tmp_path / "late.soc"
    late.write_text("# NUMBER ALTERNATIVES: 3\n3: 1,2,3\n# TITLE: late\n")
    with pytest.raises(certificate.Unreadable, match="header line after the data"):
        certificate.check(str(late), forged)
    tabbed = tmp_path / "tabbed.soc"
    tabbed.write_text("# NUMBER ALTERNATIVES: 3\n3: 1,\t2,3\n")
    assert certificate.check(str(tabbed), preflib_certificate(["1", "2", "3"], [0, 1, 2], 0)).startswith("certified")


def test_preflib_files_of_the_format_before_2022_are_read(tmp_path):
    legacy = tmp_path / "legacy.soc"  # two voters a > b > c, one c > b > a
    legacy.write_text("3\n1,a\n2,b\n3,c\n3,3,2\n2,1,2,3\n1,3,2,1\n")
    cert = preflib_certificate(["a", "b", "c"], [0, 1, 2], 6)
    assert certificate.check(str(legacy), cert).startswith("certified")
    legacy.write_text("3\n1,a\n3,b\n3,c\n3,3,2\n2,1,2,3\n")
    with pytest.raises(certificate.Unreadable, match="expected '2,Name'"):
        certificate.check(str(legacy), cert)


def test_python_m_kollective_checks_a_certificate(election, tmp_path, capsys):
    import json

    from kollective.__main__ import main

    path, cert = election
    written = tmp_path / "certificate.json"
    written.write_text(json.dumps(cert))
    assert main(["check-certificate", path, str(written)]) == 0
    assert capsys.readouterr().out.startswith("certified")
    cert["ranking"] = [1, 0, 2]
    written.write_text(json.dumps(cert))
    assert main(["check-certificate", path, str(written)]) == 1


@pytest.mark.parametrize("text, words", [
    ("# NUMBER ALTERNATIVES: 3\n2: 1 2,3\n", "expected ','"),  # "1 2" is no alternative 12
    ("# NUMBER ALTERNATIVES: 3\n2: {1,2}3\n", "expected ','"),
    ("# NUMBER ALTERNATIVES: 3\n# NUMBER VOTERS: 5\n2: 1,2,3\n", "NUMBER VOTERS is 5, but the orders give 2"),
    ("3\n1,a\n2,b\n3,c\ngarbage\n2,1,2,3\n", "expected 'voters,sum of counts,unique orders'"),
    ("# NUMBER ALTERNATIVES: 3\n# DATA TYPE: soc\n2: {1,2},3\n", "it says 'soc' but the data is toc"),
    ("# NUMBER ALTERNATIVES: 3\n", "no orders after the header"),
])
def test_preflib_files_kollective_refuses_are_refused(tmp_path, text, words):
    path = tmp_path / "ballots.toi"
    path.write_text(text)
    with pytest.raises(certificate.Unreadable, match=words):
        certificate.read_preflib(str(path), 3)


def test_preflib_reading_matches_kollective_on_blanks_and_bytes(tmp_path):
    path = tmp_path / "ballots.soc"
    path.write_bytes(b"# TITLE: caf\xe9\n# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME  1: x\n3: 1 ,\t2\n")
    assert certificate.check(str(path), preflib_certificate(["x", "2"], [0, 1], 0)).startswith("certified")


def lp_component(alternatives, distance_doubled, fixed_pairs):
    """An LP component whose root is bounded by no rows, with `fixed_pairs` to be re-derived."""
    return {"alternatives": alternatives, "method": "lp", "distance_doubled": distance_doubled,
            "fixed_pairs": fixed_pairs, "proof": {"rows": [], "nodes": [{"kind": "bound", "rows": -1}]}}


def certificate_of(input_format, ranking, distance_doubled, components):
    return {"format": "kollective-kemeny-certificate", "version": 5, "price_bits": 32, "input_format": input_format,
            "alternatives": 3, "names": ["a", "b", "c"], "distance_doubled": distance_doubled, "ranking": ranking,
            "components": components}


def test_a_majority_pair_needs_strict_complete_ballots(election):
    path, _ = election  # a pairwise matrix: a beats c 7 to 1, but no ballots are known
    cert = certificate_of("matrix-counts", [0, 1, 2], 12, [lp_component([0, 1, 2], 12, [[0, 2, "majority"]])])
    with pytest.raises(certificate.Rejected, match="needs ballots that rank every alternative"):
        certificate.check(path, cert)


def test_a_majority_pair_needs_an_alternative_decided_by_three_quarters_against_all(tmp_path):
    # a beats b 3 to 1, but a and c, and b and c, split 2 to 2: neither a nor b is decided against all.
    path = tmp_path / "dirty.soc"
    path.write_text("# NUMBER ALTERNATIVES: 3\n# NUMBER VOTERS: 4\n# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 2: b\n"
                    "# ALTERNATIVE NAME 3: c\n1: 1,2,3\n1: 1,3,2\n1: 3,1,2\n1: 2,3,1\n")
    cert = certificate_of("preflib", [0, 2, 1], 10, [lp_component([0, 1, 2], 10, [[0, 1, "majority"]])])
    with pytest.raises(certificate.Rejected, match="the 3/4-majority rule does not hold"):
        certificate.check(str(path), cert)


def test_the_exchange_rule_is_strict(tmp_path):
    # Clones a and b tie 4 to 4 and beat c alike: margin 0, gain 0, so b may come first in an optimum.
    path = tmp_path / "clones.csv"
    path.write_text(",a,b,c\na,0,4,6\nb,4,0,6\nc,2,2,0\n")
    cert = certificate_of("matrix-counts", [0, 1, 2], 16, [
        lp_component([0, 1], 8, [[0, 1, "exchange"]]), {"alternatives": [2], "method": "trivial", "distance_doubled": 0}])
    with pytest.raises(certificate.Rejected, match="the exchange rule does not hold"):
        certificate.check(str(path), cert)
