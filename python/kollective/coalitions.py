"""Coalition structure generation: the partition of agents with the largest total value."""

import numpy as np

from . import _arrays, _kollective, _options, _results


class CoalitionResult(_results.Result):
    """The coalition structure's result: the declared fields (CoalitionResult.fields(); the
    structure as lists of agents 0..n-1), and masks (the same coalitions as bit masks,
    ascending), solve_s (the solve in C++)."""

    _algorithm = "coalition"


def coalition(values, /, agents=None, **options) -> CoalitionResult:
    """The optimal coalition structure of the game values[mask] (2^n entries, values[0] = 0;
    bit a of mask is agent a), or of a value function: `values(masks)` takes a numpy array of
    masks (uint64) and returns their values, and `agents` says how many agents there are (it is
    evaluated in chunks: value_table). method "ip" or "auto" with a time_limit returns, once it
    has passed, the best structure found with exact False and a proven upper_bound (the gap is
    upper_bound - value); result.method says which method finished."""
    if callable(values):
        values = value_table(values, agents)
    elif agents is not None:
        raise TypeError("coalition: agents= goes with a value function; a table's size says its agents")
    values = _arrays.numeric(values, "values", 1, np.float64, finite=False)  # the extension checks
    return CoalitionResult(_kollective.coalition(values, _options.given(options)))


def value_table(function, agents, chunk=1 << 20):
    """The 2^agents values of a vectorized value function: function(masks) for every non-empty
    coalition, `chunk` masks at a time (numpy uint64 arrays, bit a = agent a), and 0 for the
    empty one. The function returns one finite value per mask."""
    if not isinstance(agents, (int, np.integer)) or isinstance(agents, bool) or not 1 <= agents <= 40:
        raise ValueError(f"value_table: agents must be an integer in 1..40, not {agents!r}")
    if not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ValueError(f"value_table: chunk must be a positive integer, not {chunk!r}")
    count = 1 << int(agents)
    table = np.zeros(count, dtype=np.float64)
    for start in range(1, count, chunk):
        masks = np.arange(start, min(start + chunk, count), dtype=np.uint64)
        made = np.asarray(function(masks), dtype=np.float64)
        if made.shape != masks.shape:
            raise ValueError(f"value_table: the function returned shape {made.shape} for {masks.size} masks "
                             f"(masks {start}..{start + masks.size - 1})")
        if not np.all(np.isfinite(made)):
            bad = int(masks[np.argmin(np.isfinite(made))])
            raise ValueError(f"value_table: the function's value of mask {bad} is not finite")
        table[start:start + masks.size] = made
    return table


_options.declare(coalition, "coalition")


def generate_game(model, agents, seed=1):
    """A seeded game as the YAML configs' generators make it (e.g. model "idpg" or "uniform")."""
    agents = _arrays.whole(agents, "agents", 1, 40)
    return _kollective.generate_game(model, agents, _arrays.whole(seed, "seed", 0, (1 << 63) - 1))
