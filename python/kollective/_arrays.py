"""Checks of numpy inputs, with messages that name the argument and what is wrong."""

import numpy as np


def numeric(value, name, ndim, dtype, integral=False, finite=True):
    """`value` as a C-contiguous array of `dtype` with `ndim` dimensions.

    Raises TypeError for a non-numeric dtype (or a non-integer one where `integral`), ValueError
    for a wrong number of dimensions or, where `finite`, NaN or infinite entries.
    """
    array = np.asarray(value)
    if array.dtype.kind not in ("b", "i", "u", "f"):
        raise TypeError(f"{name} must hold numbers, got dtype {array.dtype}")
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
