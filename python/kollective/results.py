"""The results database `kollective run` writes to its output folder (results.sqlite): every
solved point, committed as it was solved, read back with its context (docs/configuration.md,
"Campaigns"). Standard library only, besides pandas for `frame=True`."""

import contextlib
import json
import pathlib
import sqlite3
import warnings

# Columns of the driver's tables that had other names, by former name (CHANGELOG.md): a row
# asked for a former name serves the current one with a FutureWarning, and `kollective plot`
# reads older tables by them.
FORMER_COLUMNS = {
    "seconds": "solve_s", "seconds_min": "solve_min_s", "lp_seconds": "lp_s", "dp_layers_seconds": "dp_layers_s",
    "exchange_seconds": "exchange_s", "exchange_seconds_min": "exchange_min_s",
    "exchange_seconds_max": "exchange_max_s", "exchange_s_min": "exchange_min_s", "exchange_s_max": "exchange_max_s",
    "paths_s_min": "paths_min_s", "seconds_per_iteration": "iteration_s", "seconds_per_fun": "fun_s",
    "seconds_per_grad": "grad_s", "seconds_per_hv": "hv_s", "feature_precision": "precision",
}


class Row(dict):
    """One stored table row: a dict, which also answers a former column name (FORMER_COLUMNS)
    with the current one's value and a FutureWarning."""

    def __missing__(self, name):
        current = FORMER_COLUMNS.get(name)
        if current is None or current not in self:
            raise KeyError(name)
        warnings.warn(f"column '{name}' is now '{current}' (CHANGELOG.md)", FutureWarning, stacklevel=2)
        return self[current]


_POINT_COLUMNS = ("run", "point", "session", "rank", "parameters", "started", "ended")
_SESSION_COLUMNS = ("config", "config_hash", "revision", "backend", "device", "kokkos", "host", "ranks")


def database_path(path):
    """The database of an output folder, or the file given; FileNotFoundError naming it if absent."""
    path = pathlib.Path(path)
    database = path / "results.sqlite" if path.is_dir() else path
    if not database.is_file():
        raise FileNotFoundError(f"{path}: no results database ({database}); give an output folder of kollective run")
    return database


def _connect(database):
    """Read-write where the file allows, though nothing is written: the last connection to close
    then folds the WAL back and removes it, where a read-only one leaves -wal and -shm files."""
    try:
        return sqlite3.connect(f"file:{database}?mode=rw", uri=True)
    except sqlite3.OperationalError:  # a read-only file or folder
        return sqlite3.connect(f"file:{database}?mode=ro", uri=True)


def load(path, frame=False):
    """Every stored table row of the campaign at `path` (an output folder or its results.sqlite),
    in run and point order: a list of dicts, each with the point's `run`, `point` (its index in
    the run), `session`, `rank`, `started` and `ended` (ISO 8601, UTC), `parameters` (a dict), the
    session's `config`, `config_hash`, `revision`, `backend`, `device`, `kokkos`, `host` and `ranks`
    (under `session_`-prefixed names where a cell has the same name), and every cell of the row,
    typed as in the tables' JSON; a former column name (`row["seconds"]`) gives the current
    column's value with a FutureWarning. `frame=True`: a pandas DataFrame of the same rows."""
    database = database_path(path)
    with contextlib.closing(_connect(database)) as connection:
        try:
            found = connection.execute(
                "SELECT p.run, p.point, p.session, p.rank, p.parameters, p.started, p.ended, "
                "s.config, s.config_hash, s.revision, s.backend, s.device, s.kokkos, s.host, s.ranks, r.cells "
                "FROM points p JOIN sessions s ON s.id = p.session JOIN rows r ON r.run = p.run AND r.point = p.point "
                "ORDER BY p.run, p.point, r.row").fetchall()
        except sqlite3.DatabaseError as error:
            raise ValueError(f"{database}: not a Kollective results database ({error})") from None
    rows = []
    for values in found:
        row = Row(zip(_POINT_COLUMNS, values))
        row["parameters"] = json.loads(row["parameters"])
        cells = json.loads(values[-1])
        for name, value in zip(_SESSION_COLUMNS, values[len(_POINT_COLUMNS):-1]):
            row["session_" + name if name in cells else name] = value
        row.update(cells)
        rows.append(row)
    if not frame:
        return rows
    try:
        import pandas
    except ImportError:
        raise ImportError("load(..., frame=True) needs pandas (pip install pandas)") from None
    return pandas.DataFrame(rows)
