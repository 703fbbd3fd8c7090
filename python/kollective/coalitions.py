"""Coalition structure generation: the partition of agents with the largest total value."""

from dataclasses import dataclass
from typing import List

import numpy as np

from . import _arrays, _kollective, _options


@dataclass
class CoalitionResult:
    value: float                 # the optimal structure's total value
    structure: List[List[int]]   # its coalitions, each a list of agents 0..n-1
    masks: List[int]             # the same coalitions as bit masks, ascending
    method: str
    seconds: float = 0.0         # the solve in C++, without the Python layer
    exact: bool = True           # False: "ip" or "auto" stopped at its time_limit; value is the best found
    upper_bound: float = 0.0     # the optimum is at most this (value when exact)
    nodes: int = 0               # "ip", "auto": the coalitions IP's branch and bound tried
    ip_seconds: float = 0.0      # "ip", "auto": IP's time (auto: also when IDP then ended the solve)
    ip_start_seconds: float = 0.0  # of it, the part before the search


def coalition(values, **options) -> CoalitionResult:
    """The optimal coalition structure of the game values[mask] (2^n entries, values[0] = 0;
    bit a of mask is agent a). method "ip" or "auto" with a time_limit returns, once it has
    passed, the best structure found with exact False and a proven upper_bound (the gap is
    upper_bound - value); result.method says which method finished."""
    values = _arrays.numeric(values, "values", 1, np.float64, finite=False)  # the extension checks
    raw = _kollective.coalition(values, _options.given(options))
    structure = [[a for a in range(mask.bit_length()) if mask >> a & 1] for mask in raw["masks"]]
    return CoalitionResult(raw["value"], structure, raw["masks"], raw["method"], raw["seconds"], raw["exact"],
                           raw["upper_bound"], raw["nodes"], raw["ip_seconds"], raw["ip_start_seconds"])


_options.declare(coalition, "coalition")


def generate_game(model, agents, seed=1):
    """A seeded game as the YAML configs' generators make it (e.g. model "idpg" or "uniform")."""
    return _kollective.generate_game(model, agents, seed)
