"""Figures of time and throughput against problem size, from the tables the `kollective` driver records.

`plot_results(paths)` reads every result CSV below one or more folders, recognises each table's
algorithm from its columns and draws per algorithm time and throughput against problem size. Each
(input, variant, backend, device, ranks, revision) is one series, so runs of several folders
(backends, revisions, 1 against several GPUs) share a figure; rows at one size are drawn at their median.

Reference figures are drawn dashed, where the tables hold them:
- floors and ceilings the driver records beside a metric (RankSVM's `read_x_twice_s` under
  `hv_s`, its `copy_bytes_per_s` over `hv_x_bytes_per_s`);
- any column named like the metric plus `anchor`, `baseline`, `floor` or `ceiling`
  (`paths_s_anchor`, `ceiling_tera_updates_per_s`, ...);
- rows whose `run` names an anchor or a baseline (`liblinear_...`, `..._anchor`);
- tables of another program (no `run` column; a size column such as `n`, and `seconds`), e.g. a
  CBC ILP run, drawn on the figure of the driver tables in the same folder.

Files that are not result tables (rankings, paths, pairwise matrices, nvidia-smi's gpu.csv, ...)
are skipped. Only matplotlib's Agg canvas is used, never pyplot: nothing opens a window and the
caller's backend is left alone. Imports nothing from the rest of the package.
"""

import csv
import json
import math
import pathlib
import re
import textwrap
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

try:
    import matplotlib
    from matplotlib import ticker
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ImportError as e:
    raise ImportError("kollective's plots need matplotlib: pip install 'kollective[plot]' (or pip install "
                      "matplotlib)") from e

from . import results  # noqa: E402  (the former column names; results databases)

__all__ = ["plot_results", "plot_table", "build_figures", "save_figures", "figure_name", "FIGURE_SIZE_INCHES",
           "FIGURE_DPI", "FORMATS"]

FIGURE_SIZE_INCHES = (9.0, 5.0)
FIGURE_DPI = 100  # so a PNG is 900 x 500 pixels
FORMATS = ("png", "svg", "pdf")
# Keeps the files byte-stable across machines and days (no date, no version stamp).
_SAVE_METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}, "pdf": {"CreationDate": None}}

_REFERENCE_WORDS = ("anchor", "baseline", "floor", "ceiling")
# Run names that mark a row as another program's figure rather than Kollective's.
_ANCHOR_RUN_WORDS = ("anchor", "baseline", "liblinear", "cbc")
_SIZE_COLUMNS = ("alternatives", "agents", "documents", "n")


@dataclass(frozen=True)
class Metric:
    column: str
    kind: str  # "time" or "throughput": the figure's file name suffix
    label: str  # y axis label without the unit
    unit: str
    scale: float = 1.0  # plotted value = recorded value / scale
    references: tuple = ()  # (column, legend text): floors or ceilings recorded beside the metric


@dataclass(frozen=True)
class Algorithm:
    name: str
    title: str
    size_column: str
    size_label: str
    marker_columns: tuple  # all of these, with size_column and `run`, identify the algorithm
    variant_columns: tuple  # besides the machine columns, these split series
    metrics: tuple


ALGORITHMS = (
    Algorithm(
        "schulze", "Schulze strongest paths", "alternatives", "alternatives n", ("strength_bits",),
        ("input", "strength_bits"),
        (Metric("paths_s", "time", "strongest-path time", "s"),
         Metric("tera_updates_per_s", "throughput", "path updates, n\u00b3 / paths_s", "T updates/s"))),
    Algorithm(
        "kemeny", "Kemeny rank aggregation", "alternatives", "alternatives n", ("distance",), ("input", "method"),
        (Metric("solve_s", "time", "solve time, median of repetitions", "s"),)),
    # The record shows IDP's work does not depend on the value model, so inputs share a series.
    Algorithm(
        "csg", "Coalition structure generation", "agents", "agents n", ("splits",), ("method", "precision"),
        (Metric("solve_s", "time", "solve time", "s"),
         Metric("splits_per_s", "throughput", "splits evaluated per second", "splits/s"))),
    # Total training time follows the iteration count, not the size; the Hessian product is what scales.
    Algorithm(
        "ranksvm", "RankSVM (TRON)", "documents", "training documents", ("iterations",),
        ("train", "precision"),
        (Metric("hv_s", "time", "time per Hessian-vector product", "s",
                references=(("read_x_twice_s", "floor: X read twice at copy rate"),)),
         Metric("hv_x_bytes_per_s", "throughput", "X read in Hessian products", "TB/s", 1e12,
                references=(("copy_bytes_per_s", "ceiling: device copy rate"),)))),
)


@dataclass
class Table:
    path: pathlib.Path
    root: pathlib.Path  # the folder the table was found under, for folder labels
    columns: tuple
    rows: list
    algorithm: object = None  # Algorithm, or None while unresolved
    external: bool = False  # another program's table (no `run` column): drawn as an anchor


@dataclass(frozen=True)
class SeriesKey:
    role: str  # "run", "reference" or "anchor"
    parts: tuple  # (name, text) pairs naming the series; a reference has its measured series' parts
    reference: str = ""


# ---------------------------------------------------------------- reading tables


def _number(text):
    """The finite float in a cell, or None (empty, 'skipped', nan, ...)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _read_csv(path):  # an unreadable or malformed file is simply not a table
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as handle:
            reader = csv.DictReader(handle, skipinitialspace=True)
            columns, rows = tuple(reader.fieldnames or ()), list(reader)
    except (OSError, csv.Error):
        return (), []
    renamed = dict(results.FORMER_COLUMNS) if "run" in columns else {}  # the driver's tables before a rename
    if "agents" in columns and "precision" not in columns:
        renamed["values"] = "precision"
    if any(c in renamed for c in columns):
        columns = tuple(renamed.get(c, c) for c in columns)
        rows = [{renamed.get(k, k): v for k, v in row.items()} for row in rows]
    return columns, rows


def _classify(path, root, table=None):
    """The table at path if it is a result table (the driver's, or another program's), else None.
    `table`: its (columns, rows) already read (a results database's run)."""
    columns, rows = table or _read_csv(path)
    if rows and "run" in columns:
        for algorithm in ALGORITHMS:
            if all(c in columns for c in (algorithm.size_column, *algorithm.marker_columns)):
                return Table(path, root, columns, rows, algorithm)
    elif rows and "seconds" in columns and any(c in columns for c in _SIZE_COLUMNS):
        return Table(path, root, columns, rows, external=True)
    return None  # not a result table: rankings, paths, gpu.csv, ...


def _assign_external_tables(tables):
    """Gives another program's table the algorithm of the driver tables nearest to it (its folder, then up)."""
    driver = [t for t in tables if not t.external]
    for table in (t for t in tables if t.external):
        for folder in (table.path.parent, *table.path.parent.parents):
            found = [t.algorithm.name for t in driver if folder == t.path.parent or folder in t.path.parents]
            if found:
                table.algorithm = next(a for a in ALGORITHMS if a.name == max(sorted(set(found)), key=found.count))
                break
            if folder == table.root:
                break
    return [t for t in tables if t.algorithm is not None]


def _csv_files(path):
    if path.is_file():
        return [path] if path.suffix.lower() == ".csv" else []
    return sorted(p for p in path.rglob("*.csv") if p.is_file())


def _database_tables(path):
    """Each run of a results database as a table: (columns, rows) of text cells, as a CSV gives."""
    runs = {}
    for row in results.load(path):
        cells = {k: v for k, v in row.items() if k not in ("point", "session", "rank", "parameters", "started",
                                                            "ended") and not k.startswith("session_")}
        runs.setdefault(row["run"], []).append(
            {k: json.dumps(v) if isinstance(v, list) else "" if v is None else str(v).lower()
             if isinstance(v, bool) else str(v) for k, v in cells.items()})
    for run, rows in runs.items():
        columns = tuple(dict.fromkeys(c for r in rows for c in r))
        yield run, (columns, rows)


def read_tables(paths):
    """Every result table below the given folders or CSV files, and in the given results
    databases, with its algorithm resolved. A folder's results databases (results.sqlite) are
    read instead of the CSV tables rendered from them beside them."""
    tables, seen = [], set()
    for path in paths:
        root = path if path.is_dir() else path.parent
        if path.is_file():
            databases = [path] if path.suffix == ".sqlite" else []
        else:
            databases = sorted(p for p in path.rglob("results.sqlite") if p.is_file())
        for database in databases:
            if database.resolve() not in seen:
                seen.add(database.resolve())
                for run, table in _database_tables(database):
                    tables.append(_classify(database.parent / f"{database.name}#{run}", root, table))
        rendered = {database.parent.resolve() for database in databases}  # their CSVs hold the same rows
        for csv_path in _csv_files(path):
            if csv_path.parent.resolve() in rendered:
                continue
            if csv_path.resolve() not in seen:  # a folder given twice (or inside another) counts once
                seen.add(csv_path.resolve())
                tables.append(_classify(csv_path, root))
    return _assign_external_tables([t for t in tables if t is not None])


# ---------------------------------------------------------------- series


def _input_family(text):
    """`mallows(n=60, voters=100, phi=0.950000, seed=1)` -> `mallows(phi=0.95)`: the input without its size."""
    match = re.fullmatch(r"\s*([\w.-]+)\((.*)\)\s*", text or "")
    if not match:  # a file: its name without size tokens such as _n30 or _v100
        return re.sub(r"_[a-z]\d+(?=_|$)", "", pathlib.PurePath(text).stem) if text else ""
    kept = []
    for item in match.group(2).split(","):
        key, _, value = item.strip().partition("=")
        if key in ("n", "voters", "seed", "docs", "agents") or not key:
            continue
        number = _number(value)
        kept.append(f"{key}={number:g}" if number is not None else f"{key}={value}")
    return f"{match.group(1)}({', '.join(kept)})" if kept else match.group(1)


def _short_device(text):
    """`NVIDIA H100 80GB HBM3` -> `H100`: vendor words and memory sizes only lengthen legends."""
    text = re.sub(r"\((R|TM)\)|\b(NVIDIA|Intel|AMD|Processor|CPU|\d+GB|HBM\d*e?)\b", "", text or "")
    return " ".join(text.split())


def _variant_text(column, value):
    if column in ("input", "train"):
        return _input_family(value)
    if column == "strength_bits":
        return f"{value}-bit"
    if column == "precision":
        return f"{value} precision"
    if column == "method":  # `auto` records what each component got (decomposition+lp, ...): one series
        return value.split("+")[0]
    return value


def _revision_text(table, row):
    revision = (row.get("revision") or "").strip()
    if not revision:  # older tables: the folder tells the runs apart
        return table.path.parent.name if table.path.parent != table.root else table.root.name
    return "rev " + revision.removesuffix("-dirty")[:7] + ("-dirty" if revision.endswith("-dirty") else "")


def _series_parts(algorithm, table, row):
    """The (name, text) pairs that make one series: variant columns, then the machine."""
    parts = [(c, _variant_text(c, row.get(c) or "")) for c in algorithm.variant_columns]
    ranks = row.get("ranks") or "1"  # tables from before the MPI builds ran one process
    parts += [("backend", row.get("backend") or ""), ("device", _short_device(row.get("device"))),
              ("ranks", f"{ranks} rank" + ("" if ranks == "1" else "s")), ("revision", _revision_text(table, row))]
    return tuple(parts)


def _is_anchor_run(row):
    name = (row.get("run") or "").lower()
    return any(word in name for word in _ANCHOR_RUN_WORDS)


def _reference_columns(metric, columns):
    """The metric's recorded floors and ceilings, and any column named `<word>_<metric>` / `<metric>_<word>`."""
    named = [(c, f"{word}: {c}") for c in columns for word in _REFERENCE_WORDS
             if c in (f"{word}_{metric.column}", f"{metric.column}_{word}")]
    return [(c, text) for c, text in metric.references if c in columns] + named


def _external_points(table, metric):
    """(key, size, value, stopped at a limit) of another program's table; it records `seconds` only."""
    value_column = metric.column if metric.column in table.columns else ("seconds" if metric.kind == "time" else None)
    size_column = next((c for c in _SIZE_COLUMNS if c in table.columns), None)
    if value_column is None or size_column is None:
        return
    for row in table.rows:
        source = row.get("input") or row.get("file") or ""
        label = f"{table.path.stem}: {_input_family(source)}" if source else table.path.stem
        limited = "limit" in (row.get("status") or "").lower()  # e.g. CBC's "time limit"
        size, value = _number(row.get(size_column)), _number(row.get(value_column))
        yield SeriesKey("anchor", (("anchor", label),)), size, value, limited


def _row_points(table, row, metric):
    """(key, size, value, limited) of one driver row: its measured value and any recorded references."""
    size = _number(row.get(table.algorithm.size_column))
    if _is_anchor_run(row):
        yield SeriesKey("anchor", (("anchor", row["run"]),)), size, _number(row.get(metric.column)), False
        return
    parts = _series_parts(table.algorithm, table, row)
    yield SeriesKey("run", parts), size, _number(row.get(metric.column)), False
    for column, text in _reference_columns(metric, table.columns):
        yield SeriesKey("reference", parts, text), size, _number(row.get(column)), False


def collect_series(tables, algorithm, metric):
    """{SeriesKey: [(size, value, limited), ...]} for one figure; values in the metric's plotted unit."""
    series = defaultdict(list)
    for table in (t for t in tables if t.algorithm is algorithm):
        if table.external:
            points = _external_points(table, metric)
        else:
            points = (p for row in table.rows for p in _row_points(table, row, metric))
        for key, size, value, limited in points:
            if size is not None and size > 0 and value is not None and value > 0:  # log axes need > 0
                series[key].append((size, value / metric.scale, limited))
    return dict(series)


def _median_by_size(points):
    sizes = sorted({size for size, _, _ in points})
    return np.array(sizes), np.array([np.median([v for s, v, _ in points if s == size]) for size in sizes])


# ---------------------------------------------------------------- drawing

_MARKERS = ("o", "s", "D", "v", "^", "P", "X")
_ANCHOR_GREYS = ("black", "dimgray", "gray", "darkgray")


def _spans_decade(values):  # all values are > 0: collect_series keeps no others
    return bool(values) and max(values) / min(values) > 10


def _plain_2_5(value, _position=None):
    mantissa = round(value / 10 ** math.floor(math.log10(value))) if value > 0 else 0
    return f"{value:g}" if mantissa in (2, 5) else ""


def _log_axis(axis, values):
    """Plain numbers (0.01, 2, 30) on a log axis; the 2s and 5s between decades too where it spans few."""
    axis.set_major_formatter(ticker.FuncFormatter(lambda value, _position: f"{value:g}"))
    few_decades = max(values) / min(values) < 100
    axis.set_minor_formatter(ticker.FuncFormatter(_plain_2_5) if few_decades else ticker.NullFormatter())


def _set_scales(ax, sizes, values):
    """Log axes where the data span more than a decade; whole-number ticks for whole-number sizes."""
    if _spans_decade(sizes):
        ax.set_xscale("log")
        _log_axis(ax.xaxis, sizes)
    elif all(float(s).is_integer() for s in sizes):
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    if _spans_decade(values):
        ax.set_yscale("log")
        _log_axis(ax.yaxis, values)


def _shared_and_redundant(keys):
    """Part names every measured series shares (they go to the title), and the backend where each
    device runs one backend (the device already tells it)."""
    measured = [dict(k.parts) for k in keys if k.role != "anchor"]
    names = [name for name, _ in next((k.parts for k in keys if k.role != "anchor"), ())]
    shared = [n for n in names if len({m.get(n) for m in measured}) == 1]
    backends_by_device = defaultdict(set)
    for m in measured:
        backends_by_device[m.get("device")].add(m.get("backend"))
    hidden = set(shared)
    if all(len(b) == 1 for b in backends_by_device.values()):
        hidden.add("backend")
    return [measured[0][n] for n in shared if measured[0][n]], hidden


def _legend_text(key, hidden):
    if key.role == "anchor":
        return textwrap.fill(f"{key.parts[0][1]} (anchor)", 46)
    text = ", ".join(value for name, value in key.parts if name not in hidden and value)
    return textwrap.fill(text or "measured", 46)


def _draw_measured(ax, points, style, label):
    sizes, values = _median_by_size([p for p in points if not p[2]])
    if len(sizes):
        ax.plot(sizes, values, label=label, **style)
    limited = [(s, v) for s, v, lim in points if lim]
    if limited:  # the run stopped at a time limit: its true figure is at least this
        s, v = zip(*limited)
        ax.plot(s, v, linestyle="", marker="^", markersize=8, markerfacecolor="none", color=style["color"],
                label=f"{label}: stopped at a limit, so at least")


def _draw_reference(ax, points, color, label):
    # A bar marker as well as the dashed line, so a floor recorded at a single size still shows.
    sizes, values = _median_by_size(points)
    ax.plot(sizes, values, color=color, linestyle="--", linewidth=1.2, marker="_", markersize=16, label=label)


def _styles(keys):
    """A colour and marker per measured series (its references share its colour), greys for anchors.
    Hollow markers of three sizes and lines a little transparent, so series that coincide stay
    visible behind one another."""
    measured = sorted({k.parts for k in keys if k.role != "anchor"})
    palette = [f"C{i}" for i in range(10)] if len(measured) <= 10 else list(matplotlib.colormaps["tab20"].colors)
    styles = {parts: dict(color=palette[i % len(palette)], marker=_MARKERS[i % len(_MARKERS)], linestyle="-",
                          markerfacecolor="none", markersize=5 + 2 * (i % 3), alpha=0.85)
              for i, parts in enumerate(measured)}
    for i, parts in enumerate(sorted(k.parts for k in keys if k.role == "anchor")):
        styles[parts] = dict(color=_ANCHOR_GREYS[i % 4], marker="s", markerfacecolor="none", linestyle=":")
    return styles


def _sort_key(key):
    return ({"run": 0, "reference": 1, "anchor": 2}[key.role], key.parts, key.reference)


def _draw_all(ax, series):
    keys = sorted(series, key=_sort_key)
    shared_text, hidden = _shared_and_redundant(keys)
    styles = _styles(keys)
    labelled_references = set()
    for key in keys:
        if key.role == "reference":  # one legend entry per kind of reference, not per series
            label = "_nolegend_" if key.reference in labelled_references else f"{key.reference} (dashed, series colour)"
            labelled_references.add(key.reference)
            _draw_reference(ax, series[key], styles[key.parts]["color"], label)
        else:
            _draw_measured(ax, series[key], styles[key.parts], _legend_text(key, hidden))
    return shared_text


def draw_figure(algorithm, metric, series):
    """One Figure (Agg canvas) of metric against size, one line per series."""
    figure = Figure(figsize=FIGURE_SIZE_INCHES, dpi=FIGURE_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    shared_text = _draw_all(ax, series)
    all_points = [p for points in series.values() for p in points]
    _set_scales(ax, [s for s, _, _ in all_points], [v for _, v, _ in all_points])
    ax.set_xlabel(algorithm.size_label)
    ax.set_ylabel(f"{metric.label} [{metric.unit}]")
    ax.set_title(f"{algorithm.title}: {metric.kind} against size", loc="left", fontsize="medium")
    if shared_text:
        figure.suptitle("All series: " + ", ".join(shared_text), fontsize="small", x=0.01, ha="left")
    ax.grid(True, which="major", alpha=0.3)
    entries = len(ax.get_legend_handles_labels()[1])
    figure.legend(loc="outside right upper", fontsize="x-small" if entries <= 22 else "xx-small",
                  ncols=1 if entries <= 22 else 2)
    return figure


# ---------------------------------------------------------------- entry points


def _as_paths(results):
    if isinstance(results, (str, pathlib.PurePath)):
        results = [results]
    paths = [pathlib.Path(p) for p in results]
    missing = [str(p) for p in paths if not p.exists()]
    if missing or not paths:
        raise ValueError(f"{', '.join(missing) or '(none given)'}: no such folder or file")
    return paths


def figure_name(algorithm_name, kind, tag=""):
    """`schulze_time`, or `kemeny_lp_time` with tag `lp`: stable names, so reruns replace their files."""
    if tag and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", tag):
        raise ValueError(f"figure tag {tag!r}: use letters, digits, '_' and '-'")
    return "_".join(part for part in (algorithm_name, tag, kind) if part)


def build_figures(results, tag=""):
    """{figure name: Figure} for every algorithm and metric the tables below `results` hold.

    `results` is a folder, a CSV file, or a list of them. Raises ValueError naming the paths when
    nothing there can be drawn.
    """
    paths = _as_paths(results)
    figure_name("x", "y", tag)  # reject a bad tag before reading anything
    tables = read_tables(paths)
    figures = {}
    for algorithm in ALGORITHMS:
        for metric in algorithm.metrics:
            series = collect_series(tables, algorithm, metric)
            if any(key.role == "run" for key in series):
                figures[figure_name(algorithm.name, metric.kind, tag)] = draw_figure(algorithm, metric, series)
    if not figures:
        named = ", ".join(str(p) for p in paths)
        sizes = ", ".join(sorted({a.size_column for a in ALGORITHMS}))
        raise ValueError(f"{named}: no result table with a size column ({sizes}) and timings found")
    return figures


def _check_formats(formats):
    if isinstance(formats, str):
        formats = formats.split(",")
    formats = tuple(f.strip().lower().lstrip(".") for f in formats if f.strip())
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ValueError(f"unknown figure format {', '.join(unknown) or '(none)'}: use {', '.join(FORMATS)}")
    return formats


def save_figures(figures, out_dir, formats=("png",)):
    """Writes each figure once per format into out_dir; returns the files in a stable order."""
    formats = _check_formats(formats)
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in sorted(figures):
        for fmt in formats:
            path = out_dir / f"{name}.{fmt}"
            figures[name].savefig(path, format=fmt, metadata=_SAVE_METADATA[fmt])
            written.append(path)
    return written


def plot_results(results_dir, out=None, formats=("png",), tag=""):
    """Draws every figure the result tables below results_dir hold; returns the files written.

    results_dir may also be a CSV file or a list of folders and files, whose runs then share
    figures. Files are `<algorithm>[_<tag>]_<time|throughput>.<format>` in out, by default
    `<first folder>/plots`. Raises ValueError naming the path if it is missing or holds no table.
    """
    paths = _as_paths(results_dir)
    formats = _check_formats(formats)
    figures = build_figures(paths, tag)
    if out is None:
        out = (paths[0] if paths[0].is_dir() else paths[0].parent) / "plots"
    return save_figures(figures, out, formats)


def plot_table(csv_path, out=None, formats=("png",), tag=""):
    """The figures of one result table; out defaults to `plots/` beside it."""
    path = pathlib.Path(csv_path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    return plot_results(path, out, formats, tag)
