"""kollective.plot and `python -m kollective plot`: the files, their pixel sizes and the figures' axes, not pixels."""

import csv
import os
import pathlib
import shutil
import struct
import subprocess
import sys

import pytest

from kollective import __main__ as cli
from kollective import plot

REPO = pathlib.Path(__file__).resolve().parents[2]
EXPECTED_PIXELS = tuple(round(inches * plot.FIGURE_DPI) for inches in plot.FIGURE_SIZE_INCHES)

SCHULZE_COLUMNS = ["run", "input", "alternatives", "voters", "strength_bits", "paths_s", "tera_updates_per_s",
                   "backend", "device", "revision", "ranks"]


def write_csv(path, columns, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)
    return path


def schulze_row(n, ranks, seconds):
    updates = n ** 3 / seconds / 1e12 * ranks
    return ["scaling", f"random_pairwise(n={n}, voters=1000, seed=1)", n, 1000, 32, seconds, updates,
            "Cuda", "NVIDIA H200", "abcdef123456", ranks]


def write_schulze_results(folder):
    """Two series (1 and 2 ranks) over 1024..65536 alternatives: more than a decade of sizes."""
    rows = [schulze_row(n, 1, 1e-12 * n ** 3 / 9) for n in (1024, 4096, 16384, 65536)]
    rows += [schulze_row(n, 2, 1e-12 * n ** 3 / 17) for n in (16384, 65536)]
    return write_csv(folder / "run_a" / "schulze.csv", SCHULZE_COLUMNS, rows)


def png_size(path):
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def legend_texts(figure):
    return [text.get_text() for legend in figure.legends for text in legend.get_texts()]


def test_png_files_have_the_expected_names_and_pixel_size(tmp_path):
    write_schulze_results(tmp_path)
    written = plot.plot_results(tmp_path)
    assert written == [tmp_path / "plots" / "schulze_throughput.png", tmp_path / "plots" / "schulze_time.png"]
    for path in written:
        assert path.is_file()
        assert png_size(path) == EXPECTED_PIXELS == (900, 500)


def test_svg_as_well_when_asked_and_a_tag_in_the_names(tmp_path):
    write_schulze_results(tmp_path)
    written = plot.plot_results(tmp_path, out=tmp_path / "out", formats="png,svg", tag="rows")
    assert sorted(p.name for p in written) == ["schulze_rows_throughput.png", "schulze_rows_throughput.svg",
                                                "schulze_rows_time.png", "schulze_rows_time.svg"]
    svg = (tmp_path / "out" / "schulze_rows_time.svg").read_text()
    assert "<svg" in svg and 'width="648pt"' in svg  # 9 inches


def test_time_figure_is_log_log_with_one_line_per_rank_count(tmp_path):
    write_schulze_results(tmp_path)
    figure = plot.build_figures(tmp_path)["schulze_time"]
    ax = figure.axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert ax.get_xlabel() == "alternatives n"
    assert ax.get_ylabel() == "strongest-path time [s]"
    assert ax.get_title(loc="left") == "Schulze strongest paths: time against size"
    assert len(ax.get_lines()) == 2
    assert sorted(len(line.get_xdata()) for line in ax.get_lines()) == [2, 4]
    assert legend_texts(figure) == ["1 rank", "2 ranks"]  # what the series share goes to the title
    assert "32-bit" in figure.get_suptitle() and "H200" in figure.get_suptitle()


def test_throughput_figure_has_its_unit(tmp_path):
    write_schulze_results(tmp_path)
    ax = plot.build_figures(tmp_path)["schulze_throughput"].axes[0]
    assert ax.get_ylabel().endswith("[T updates/s]")
    assert ax.get_xscale() == "log"
    assert ax.get_yscale() == "linear"  # 9 to 17 T/s: within a decade


def test_sizes_within_a_decade_stay_linear_and_rows_at_one_size_draw_their_median(tmp_path):
    # A table as the driver wrote it before 2026-11-27 (values, seconds: now precision, solve_s).
    columns = ["run", "input", "agents", "method", "values", "splits", "seconds", "splits_per_s", "backend",
               "device", "revision"]
    rows = [["idp", f"idpg(n={n}, seed=1)", n, "idp", "float", 10 ** n, s, 10 ** n / s, "OpenMP", "cpu", "1234567"]
            for n, s in ((20, 1.0), (24, 2.0), (24, 3.0), (24, 50.0), (28, 60.0))]
    write_csv(tmp_path / "csg.csv", columns, rows)
    ax = plot.build_figures(tmp_path)["csg_time"].axes[0]
    assert ax.get_xscale() == "linear" and ax.get_yscale() == "log"
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [20, 24, 28]
    assert list(line.get_ydata()) == [1.0, 3.0, 60.0]


def test_recorded_floor_is_drawn_dashed_beside_its_series(tmp_path):
    columns = ["run", "train", "documents", "iterations", "feature_precision", "solve_s", "hv_s",
               "read_x_twice_s", "hv_x_bytes_per_s", "copy_bytes_per_s", "backend", "device", "revision"]
    rows = [["mslr", f"mslr(docs={d}, seed=1)", d, 10, "float", 1.0, d * 4e-10, d * 3e-10, 2.5e12, 4e12, "Cuda",
             "NVIDIA H100 80GB HBM3", "1234567"] for d in (10_000, 100_000, 1_000_000)]
    write_csv(tmp_path / "ranksvm.csv", columns, rows)
    figures = plot.build_figures(tmp_path)
    time_lines = figures["ranksvm_time"].axes[0].get_lines()
    assert [line.get_linestyle() for line in time_lines] == ["-", "--"]
    assert time_lines[0].get_color() == time_lines[1].get_color()
    assert any(text.startswith("floor") for text in legend_texts(figures["ranksvm_time"]))
    throughput = figures["ranksvm_throughput"].axes[0]
    assert throughput.get_ylabel().endswith("[TB/s]")
    assert list(throughput.get_lines()[1].get_ydata()) == [4.0, 4.0, 4.0]  # the copy-rate ceiling, in TB/s


def test_anchor_run_and_anchor_column_are_drawn_apart_from_the_measured_series(tmp_path):
    columns = SCHULZE_COLUMNS + ["paths_s_anchor"]
    rows = [schulze_row(n, 1, 1e-12 * n ** 3 / 9) + [1e-12 * n ** 3] for n in (1024, 4096, 16384)]
    rows += [["scalingelections_anchor"] + schulze_row(n, 1, 1e-12 * n ** 3 / 2)[1:] + [""] for n in (4096, 16384)]
    write_csv(tmp_path / "schulze.csv", columns, rows)
    figure = plot.build_figures(tmp_path)["schulze_time"]
    lines = figure.axes[0].get_lines()
    assert [line.get_linestyle() for line in lines] == ["-", "--", ":"]
    assert [len(line.get_xdata()) for line in lines] == [3, 3, 2]
    assert legend_texts(figure) == ["measured", "anchor: paths_s_anchor (dashed, series colour)",
                                    "scalingelections_anchor (anchor)"]


def test_another_programs_table_beside_driver_tables_is_an_anchor(tmp_path):
    columns = ["run", "input", "alternatives", "voters", "method", "distance", "seconds", "backend", "device",
               "revision"]
    rows = [["lp", f"mallows_mixture(n={n}, voters=100, seed=1)", n, 100, "decomposition+lp", 5, n / 100, "OpenMP",
             "cpu", "1234567"] for n in (30, 60, 100)]
    write_csv(tmp_path / "cpu" / "kemeny.csv", columns, rows)
    write_csv(tmp_path / "cpu" / "ilp_cbc.csv", ["file", "n", "optimum", "seconds", "status"],
              [["a_n30.csv", 30, 1, 0.1, "optimal"], ["a_n60.csv", 60, 1, 0.9, "optimal"],
               ["a_n100.csv", 100, "", 500.0, "time limit"]])
    figure = plot.build_figures(tmp_path)["kemeny_time"]
    lines = figure.axes[0].get_lines()
    assert [line.get_linestyle() for line in lines] == ["-", ":", "None"]
    assert list(lines[1].get_xdata()) == [30, 60]  # the run stopped at its limit is drawn apart
    assert list(lines[2].get_xdata()) == [100] and lines[2].get_marker() == "^"
    assert any("ilp_cbc" in text and "anchor" in text for text in legend_texts(figure))


def test_files_that_are_not_result_tables_are_skipped(tmp_path):
    write_schulze_results(tmp_path)
    write_csv(tmp_path / "gpu.csv", ["name", " memory.total [MiB]"], [["NVIDIA H200", "143771 MiB"]])
    write_csv(tmp_path / "run_a" / "scaling_ranking.csv", ["rank", "alternative", "beaten", "winner"],
              [[1, "a", 3, "true"]])
    write_csv(tmp_path / "no_size.csv", ["run", "seconds"], [["x", 1.0]])
    (tmp_path / "broken.csv").write_bytes(b"run,alternatives\n\"unclosed,\x00\xff\n")
    (tmp_path / "notes.md").write_text("# not a table\n")
    assert sorted(plot.build_figures(tmp_path)) == ["schulze_throughput", "schulze_time"]


def test_recorded_database_from_perf_results(tmp_path):
    record = REPO / "perf" / "results" / "schulze" / "h200"  # a results database and its Markdown tables
    figures = plot.build_figures(record)
    assert sorted(figures) == ["schulze_throughput", "schulze_time"]
    ax = figures["schulze_time"].axes[0]
    assert ax.get_xscale() == "log"  # 1024 (the verify run) .. 65536
    assert ax.get_yscale() == "log"  # paths_s grows as n^3: over a decade
    sizes = sorted({int(x) for line in ax.get_lines() for x in line.get_xdata()})
    assert sizes == [1024, 4096, 8192, 16384, 32768, 65536]
    written = plot.plot_results(record, out=tmp_path / "out")
    assert [p.name for p in written] == ["schulze_throughput.png", "schulze_time.png"]
    assert all(png_size(p) == EXPECTED_PIXELS for p in written)
    assert not any(p.name.endswith(("-wal", "-shm")) for p in record.iterdir())  # read, left as found


def test_missing_folder_and_folder_without_tables_raise_naming_the_path(tmp_path):
    missing = tmp_path / "missing"
    with pytest.raises(ValueError, match=str(missing)):
        plot.plot_results(missing)
    write_csv(tmp_path / "empty" / "gpu.csv", ["name", "driver_version"], [["NVIDIA H200", "580"]])
    with pytest.raises(ValueError, match="no result table"):
        plot.plot_results(tmp_path / "empty")
    assert not (tmp_path / "empty" / "plots").exists()


def test_bad_format_and_tag_are_refused(tmp_path):
    write_schulze_results(tmp_path)
    with pytest.raises(ValueError, match="gif"):
        plot.plot_results(tmp_path, formats="png,gif")
    with pytest.raises(ValueError, match="tag"):
        plot.plot_results(tmp_path, tag="../up")


def test_cli_prints_each_file_and_exits_0(tmp_path, capsys):
    write_schulze_results(tmp_path)
    out = tmp_path / "figures"
    assert cli.main(["plot", str(tmp_path), "--out", str(out), "--format", "png,svg"]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(out / f"schulze_{kind}.{fmt}") for kind in ("throughput", "time") for fmt in ("png", "svg")]
    assert all(pathlib.Path(p).is_file() for p in printed)


def test_cli_exits_2_on_missing_folder_and_on_folder_without_tables(tmp_path, capsys):
    missing = tmp_path / "missing"
    assert cli.main(["plot", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert cli.main(["plot", str(tmp_path / "empty")]) == 2
    error = capsys.readouterr().err
    assert str(tmp_path / "empty") in error and "no result table" in error


def test_python_dash_m_kollective_plot(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))  # whatever found kollective here
    missing = tmp_path / "missing"
    result = subprocess.run([sys.executable, "-m", "kollective", "plot", str(missing)], capture_output=True,
                            text=True, env=env, timeout=120)
    assert result.returncode == 2
    assert str(missing) in result.stderr
    write_schulze_results(tmp_path)
    result = subprocess.run([sys.executable, "-m", "kollective", "plot", str(tmp_path)], capture_output=True,
                            text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "plots" / "schulze_time.png").is_file()
