"""Result objects made from the library's one declaration of each algorithm's result fields (the
CLI's table columns come from the same one): an attribute per declared field, None where the
field does not apply to the solve, beside the arrays the algorithm returns (lists of
alternatives or agents as indices; `names` maps them). A former name still reads, with a
FutureWarning naming the new one."""

import functools
import warnings

from . import _kollective

# The solve's seconds in C++ (without the Python layer): `seconds` before it was solve_s.
_PYTHON_FORMER = {"seconds": "solve_s"}


@functools.lru_cache(maxsize=None)
def fields(algorithm):
    """The declared result fields of "schulze", "kemeny", "coalition" or "ranksvm": a list of
    dicts (name, kind: answer, timing, counter or context; unit, meaning, former_names)."""
    return tuple(getattr(_kollective, algorithm + "_fields")())


@functools.lru_cache(maxsize=None)
def _former_names(algorithm):
    former = dict(_PYTHON_FORMER)
    for field in fields(algorithm):
        for name in field["former_names"]:
            former[name] = field["name"]
    return former


class Result:
    """One solve's result; `fields()` lists its declared fields with their kinds and units."""

    _algorithm = ""

    def __init__(self, raw, **extra):
        self.__dict__.update(raw)
        self.__dict__.update(extra)

    @classmethod
    def fields(cls):
        return fields(cls._algorithm)

    def __getattr__(self, name):  # only for names that are not attributes
        new = _former_names(self._algorithm).get(name) if not name.startswith("_") else None
        if new is None:
            raise AttributeError(f"{type(self).__name__} has no attribute '{name}'")
        warnings.warn(f"'{name}' is now '{new}' (CHANGELOG.md)", FutureWarning, stacklevel=2)
        return getattr(self, new)

    def as_dict(self):
        return dict(self.__dict__)

    def __repr__(self):
        shown = [f"{f['name']}={self.__dict__[f['name']]!r}" for f in self.fields()
                 if f["kind"] == "answer" and self.__dict__.get(f["name"]) is not None]
        return f"{type(self).__name__}(" + ", ".join(shown) + ")"
