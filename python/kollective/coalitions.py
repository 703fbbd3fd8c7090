"""Coalition structure generation: the partition of agents with the largest total value."""

import numpy as np

from . import _arrays, _kollective, _options, _results


class CoalitionResult(_results.Result):
    """The coalition structure's result: the declared fields (CoalitionResult.fields(); the
    structure as lists of agents 0..n-1), and masks (the same coalitions as bit masks,
    ascending), solve_s (the solve in C++)."""

    _algorithm = "coalition"


def coalition(values, **options) -> CoalitionResult:
    """The optimal coalition structure of the game values[mask] (2^n entries, values[0] = 0;
    bit a of mask is agent a). method "ip" or "auto" with a time_limit returns, once it has
    passed, the best structure found with exact False and a proven upper_bound (the gap is
    upper_bound - value); result.method says which method finished."""
    values = _arrays.numeric(values, "values", 1, np.float64, finite=False)  # the extension checks
    return CoalitionResult(_kollective.coalition(values, _options.given(options)))


_options.declare(coalition, "coalition")


def generate_game(model, agents, seed=1):
    """A seeded game as the YAML configs' generators make it (e.g. model "idpg" or "uniform")."""
    return _kollective.generate_game(model, agents, seed)
