"""Checks of numpy inputs, with messages that name the argument and what is wrong."""

import numbers
import os

import numpy as np


def numeric(value, name, ndim, dtype, integral=False, finite=True):
    """`value` as a C-contiguous array of `dtype` with `ndim` dimensions.

    Raises TypeError for a non-numeric dtype (or a non-integer one where `integral`), ValueError
    for a wrong number of dimensions or, where `finite`, NaN or infinite entries.
    """
    array = np.asarray(value)
    if array.dtype.kind not in ("b", "i", "u", "f"):
        raise TypeError(f"{name} must hold numbers, got dtype {array.dtype}")
    if integral and array.dtype.kind == "b":
        raise TypeError(f"{name} must hold integers, got booleans")
    if integral and array.dtype.kind == "f":
        if not np.all(np.isfinite(array)) or np.any(array != np.floor(array)):
            raise TypeError(f"{name} must hold integers, got non-integer values of dtype {array.dtype}")
    if integral and array.size:
        limits = np.iinfo(dtype)
        low, high = array.min(), array.max()
        if low < limits.min or high > limits.max:
            raise ValueError(f"{name} holds {low if low < limits.min else high}, outside {np.dtype(dtype).name}'s range")
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension{'s' if ndim > 1 else ''}, got shape {array.shape}")
    if finite and array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        where = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
        raise ValueError(f"{name}{list(where)} is {array[where]}: every entry must be finite")
    return np.ascontiguousarray(array, dtype=dtype)


def same_length(name_a, a, name_b, b):
    if len(a) != len(b):
        raise ValueError(f"{name_a} has {len(a)} entries but {name_b} has {len(b)}")


def whole(value, name, low, high):
    """`value` as an int in [low, high]: a TypeError for anything but an integer (bool included),
    a ValueError outside the range, each naming the argument."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return int(value)


def existing_file(path, what):
    """`path` as a string, or FileNotFoundError naming `what` where no file is there."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{what} '{path}' does not exist")
    return path


def names_of(names, n):
    """n alternative names: "1".."n" by default; else a sequence of texts, one each, without line
    breaks or other control characters (files and tables write them on one line)."""
    if names is None:
        return [str(a + 1) for a in range(n)]
    if isinstance(names, (str, bytes)) or not hasattr(names, "__iter__"):
        raise TypeError(f"names must be a list of names, one per alternative, not {type(names).__name__}")
    names = [str(name) for name in names]
    for name in names:
        if any(ord(c) < 0x20 or ord(c) == 0x7f for c in name):
            raise ValueError(f"name {name!r} holds a line break or another control character")
    return names
