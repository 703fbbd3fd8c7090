"""The pure-Python certificate checker as the installed package holds it (kollective.certificate):
a small hand-made certificate is certified, and tampered copies are rejected."""

import copy

import pytest

from kollective import certificate


@pytest.fixture
def election(tmp_path):
    # 0 beats 1 by 5 to 3, 1 beats 2 by 6 to 2, 0 beats 2 by 7 to 1: the order 0 > 1 > 2, distance 6.
    path = tmp_path / "counts.csv"
    path.write_text(",a,b,c\na,0,5,7\nb,3,0,6\nc,1,2,0\n")
    cert = {
        "format": "kollective-kemeny-certificate", "version": 1, "price_bits": 32,
        "input_format": "matrix-counts", "alternatives": 3, "names": ["a", "b", "c"],
        "distance_doubled": 12, "ranking": [0, 1, 2],
        "components": [
            {"alternatives": [0, 1, 2], "method": "lp", "distance_doubled": 12, "fixed_pairs": [],
             "proof": {"rows": [], "nodes": [{"kind": "bound", "rows": -1}]}},
        ],
    }
    return str(path), cert


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
