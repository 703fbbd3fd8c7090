"""Coalition structures against a brute force over every partition of the agents."""

import numpy as np
import pytest

import kollective


def partitions(agents):
    """Every partition of the list `agents`, as lists of bit masks."""
    if not agents:
        yield []
        return
    first, rest = agents[0], agents[1:]
    for partition in partitions(rest):
        yield [1 << first] + partition
        for k in range(len(partition)):
            yield partition[:k] + [partition[k] | 1 << first] + partition[k + 1:]


def brute_force(values, n):
    return max(sum(values[mask] for mask in p) for p in partitions(list(range(n))))


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("method", ["idp", "dp", "ip", "auto"])
@pytest.mark.parametrize("precision", ["double", "float"])
def test_optimum_matches_brute_force(seed, method, precision):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 8))
    values = rng.normal(size=1 << n) * rng.integers(1, 5, size=1 << n)
    values[0] = 0
    if precision == "float":
        values = values.astype(np.float32).astype(np.float64)  # exact in both
    result = kollective.coalition(values, method=method, precision=precision)
    tolerance = 1e-12 if precision == "double" else 1e-5
    assert result.optimum == pytest.approx(brute_force(values, n), rel=tolerance, abs=tolerance)
    covered = 0
    for mask, members in zip(result.masks, result.structure):
        assert covered & mask == 0 and members == [a for a in range(n) if mask >> a & 1]
        covered |= mask
    assert covered == (1 << n) - 1
    assert sum(values[m] for m in result.masks) == pytest.approx(result.optimum, rel=tolerance, abs=tolerance)


def test_generated_game_solves():
    values = kollective.generate_game("idpg", 10, seed=3)
    assert values.shape == (1024,) and values[0] == 0
    assert kollective.coalition(values).optimum >= values[-1]


def test_bad_values_raise():
    with pytest.raises(kollective.Error, match="2\\^n"):
        kollective.coalition(np.zeros(6))
    with pytest.raises(ValueError, match="finite"):
        kollective.coalition(np.array([0.0, np.nan]))
    with pytest.raises(kollective.Error):
        kollective.coalition(np.array([1.0, 2.0]))  # v(empty) must be 0
    with pytest.raises(kollective.Error, match="precision"):
        kollective.coalition(np.zeros(4), precision="half")


def test_ip_time_limit_returns_a_bounded_structure():
    values = kollective.generate_game("agent_uniform", 17, seed=2)
    optimum = kollective.coalition(values, method="idp").optimum
    exact = kollective.coalition(values, method="ip")
    assert exact.exact and exact.upper_bound == exact.optimum == pytest.approx(optimum, rel=1e-12)
    stopped = kollective.coalition(values, method="ip", time_limit=1e-6)
    assert not stopped.exact  # the first launch leaves branches on this game
    assert stopped.optimum <= optimum + 1e-9 and stopped.upper_bound >= optimum - 1e-9
    assert sum(values[m] for m in stopped.masks) == pytest.approx(stopped.optimum, rel=1e-12)
    with pytest.raises(kollective.Error, match="time_limit"):
        kollective.coalition(values, method="idp", time_limit=1.0)


def test_auto_reports_the_time_ip_took():
    values = kollective.generate_game("agent_normal", 16, seed=3)  # IP cannot end it in its share
    result = kollective.coalition(values, method="auto")
    assert result.optimum == pytest.approx(kollective.coalition(values, method="idp").optimum, rel=1e-12)
    assert result.nodes > 0 and result.ip_s >= result.ip_start_s > 0
    assert kollective.coalition(values, method="idp").ip_s == 0  # IDP alone runs no IP


def test_auto_time_limit_returns_a_bounded_structure():
    values = kollective.generate_game("agent_uniform", 17, seed=2)
    optimum = kollective.coalition(values, method="idp").optimum
    stopped = kollective.coalition(values, method="auto", time_limit=1e-6)  # IDP cannot fit: IP alone
    assert not stopped.exact and stopped.method == "ip"
    assert stopped.optimum <= optimum + 1e-9 and stopped.upper_bound >= optimum - 1e-9
    assert sum(values[m] for m in stopped.masks) == pytest.approx(stopped.optimum, rel=1e-12)
    proven = kollective.coalition(values, method="auto", time_limit=600)
    assert proven.exact and proven.optimum == pytest.approx(optimum, rel=1e-12)


def test_ip_and_auto_match_the_dp_on_random_games():
    # Games of 3-12 agents of four kinds (the generators, values of both signs, small integers
    # with many ties, values growing with the size): IP's pruning and closing never lose the optimum.
    rng = np.random.default_rng(11)
    models = ["uniform", "modified_normal", "ndcs", "agent_uniform", "gamma"]
    for game in range(200):
        n = int(rng.integers(3, 13))
        kind = game % 4
        if kind == 0:
            values = kollective.generate_game(models[game % len(models)], n, seed=game + 1)
        elif kind == 1:
            values = rng.uniform(-1, 1, 2**n)
        elif kind == 2:
            values = rng.integers(-3, 6, 2**n).astype(float)
        else:
            sizes = np.array([bin(m).count("1") for m in range(2**n)])
            values = sizes * rng.uniform(0.5, 1.5) + rng.normal(0, 0.3, 2**n) * sizes
        values[0] = 0
        optimum = kollective.coalition(values, method="dp").optimum
        for method in ("ip", "auto"):
            result = kollective.coalition(values, method=method)
            assert result.exact and result.optimum == pytest.approx(optimum, rel=1e-12, abs=1e-12), (game, method)
            assert sum(values[m] for m in result.masks) == pytest.approx(result.optimum, rel=1e-12, abs=1e-12)
