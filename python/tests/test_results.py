"""A campaign's results database through Python (kollective.results.load) and the plots: the rows
`kollective run` committed, typed and in order, equal to its CSV tables."""

import csv
import json
import os
import pathlib
import subprocess

import pytest

import kollective
from kollective import plot

CONFIG = """runs:
  - name: sweep
    algorithm: coalition
    input: {generator: {model: idpg, agents: 10, seed: 1}}
    sweep: {agents: [10, 11, 12]}
    options: {method: idp, precision: float}
  - name: election
    algorithm: schulze
    input: {generator: {model: mallows, alternatives: 12, voters: 30, phi: 0.5, seed: 2}}
"""


@pytest.fixture(scope="module")
def campaign(cli, tmp_path_factory):
    folder = tmp_path_factory.mktemp("campaign")
    (folder / "config.yaml").write_text(CONFIG)
    subprocess.run([cli, "run", str(folder / "config.yaml"), "--out", str(folder / "out"), "--quiet"], check=True,
                   env=dict(os.environ, OMP_PROC_BIND="false"), capture_output=True)
    return folder / "out"


def test_load_gives_every_row_typed_as_the_tables(campaign):
    rows = kollective.results.load(campaign)
    assert [(r["run"], r["point"]) for r in rows] == [("election", 0), ("sweep", 0), ("sweep", 1), ("sweep", 2)]
    with open(campaign / "sweep.csv", newline="") as handle:
        table = list(csv.DictReader(handle))
    for row, written in zip(rows[1:], table):
        assert row["agents"] == int(written["agents"]) and isinstance(row["agents"], int)
        assert repr(row["optimum"]) == written["optimum"]  # doubles read back exactly
        assert row["structure"] == json.loads(written["structure"]) and row["exact"] is True
        assert row["parameters"]["agents"] == row["agents"] and row["backend"] == written["backend"]
        assert row["config_hash"] and row["started"] <= row["ended"]
    assert rows == kollective.results.load(campaign / "results.sqlite")
    with pytest.warns(FutureWarning, match="'seconds' is now 'solve_s'"):
        assert rows[1]["seconds"] == rows[1]["solve_s"]
    with pytest.raises(KeyError):
        rows[1]["no_such_column"]


def test_load_refuses_what_is_not_a_results_database(tmp_path):
    with pytest.raises(FileNotFoundError, match="no results database"):
        kollective.results.load(tmp_path)
    (tmp_path / "results.sqlite").write_text("run,solve_s\n")
    with pytest.raises(ValueError, match="not a Kollective results database"):
        kollective.results.load(tmp_path)


def test_a_frame_of_the_same_rows_where_pandas_is_installed(campaign):
    pandas = pytest.importorskip("pandas")
    frame = kollective.results.load(campaign, frame=True)
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 4


def test_plots_read_the_database_as_the_csv_tables(campaign, tmp_path):
    from_csv = plot.build_figures(campaign)
    from_database = plot.build_figures(campaign / "results.sqlite")
    assert sorted(from_csv) == sorted(from_database)
    for name in from_csv:
        lines = [list(line.get_ydata()) for line in from_csv[name].axes[0].get_lines()]
        assert lines == [list(line.get_ydata()) for line in from_database[name].axes[0].get_lines()], name
