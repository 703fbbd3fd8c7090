"""Coalition structures against a brute force over every partition of the agents."""

import math

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
    if method == "ip" and precision == "float":  # IP computes in double: the setting is ignored, with a warning
        with pytest.warns(FutureWarning, match="precision has no effect with method ip"):
            result = kollective.coalition(values, method=method, precision=precision)
        assert result.precision == "double"
    else:
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
    with pytest.raises(ValueError, match="agents must be in 1..40"):
        kollective.generate_game("uniform", 41)
    with pytest.raises(TypeError, match="agents must be an integer"):
        kollective.generate_game("uniform", 3.0)


def test_a_renamed_option_named_like_the_values_argument():
    values = kollective.generate_game("uniform", 6, seed=2)
    with pytest.warns(FutureWarning, match="'values' is now 'precision'"):
        renamed = kollective.coalition(values, values="float")
    assert renamed.optimum == pytest.approx(kollective.coalition(values, precision="float").optimum)


def test_ip_time_limit_returns_a_bounded_structure():
    values = kollective.generate_game("agent_uniform", 17, seed=2)
    optimum = kollective.coalition(values, method="idp").optimum
    exact = kollective.coalition(values, method="ip")
    assert exact.exact and exact.upper_bound == exact.optimum == pytest.approx(optimum, rel=1e-12)
    stopped = kollective.coalition(values, method="ip", time_limit=1e-6)
    assert not stopped.exact  # the first launch leaves branches on this game
    assert stopped.optimum <= optimum + 1e-9 and stopped.upper_bound >= optimum - 1e-9
    assert sum(values[m] for m in stopped.masks) == pytest.approx(stopped.optimum, rel=1e-12)
    assert stopped.gap == stopped.upper_bound - stopped.optimum and stopped.gap > 0 and exact.gap == 0
    with pytest.raises(kollective.Error, match="time_limit"):
        kollective.coalition(values, method="idp", time_limit=1.0)


def test_auto_reports_the_time_ip_took():
    values = kollective.generate_game("agent_normal", 16, seed=3)  # IP cannot end it in its share
    result = kollective.coalition(values, method="auto")
    assert result.optimum == pytest.approx(kollective.coalition(values, method="idp").optimum, rel=1e-12)
    assert result.nodes > 0 and result.ip_s >= result.ip_start_s > 0
    assert kollective.coalition(values, method="idp").ip_s is None  # IDP alone runs no IP: no column


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


# The value distributions from their published formulas (the ODP-IP and FACS releases'
# inputOutput/Input.java), written again here with Python's math library: an independent check
# of the generator's formulas, its stream and its portable elementary functions.
MASK64 = (1 << 64) - 1


def mix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


class Stream:
    """Coalition (or agent) `key`'s draws: the k-th is mix64(mix64(seed) ^ mix64(key * 4096 + k + c))."""

    def __init__(self, seed, key):
        self.seed, self.base, self.next, self.spare = seed, key << 12, 0, None

    def bits(self):
        counter = (self.base + self.next + 0x632BE59BD9B4E019) & MASK64
        self.next += 1
        return mix64(mix64(self.seed) ^ mix64(counter))

    def uniform(self):
        return ((self.bits() >> 11) + 0.5) * 2.0 ** -53

    def normal(self):
        if self.spare is not None:
            value, self.spare = self.spare, None
            return value
        radius = math.sqrt(-2 * math.log(self.uniform()))
        angle = 2 * math.pi * self.uniform()
        self.spare = radius * math.sin(angle)
        return radius * math.cos(angle)

    def exponential(self):
        return -math.log(self.uniform())

    def chi_square(self, k):
        return sum(self.normal() ** 2 for _ in range(k))


def published_value(model, seed, mask, strengths):
    r, s = Stream(seed, mask), bin(mask).count("1")
    if model == "uniform":
        x = s * r.uniform()
    elif model == "normal":
        x = max(0.0, s * (10 + 0.1 * r.normal()))
    elif model == "modified_uniform":
        x = 10 * s * r.uniform()
        x += 50 * r.uniform() if (r.bits() * 100) >> 64 <= 20 else 0
    elif model == "modified_normal":
        x = max(0.0, s * (10 + 0.1 * r.normal()))
        x += 25 + 0.1 * r.normal() if (r.bits() * 100) >> 64 <= 20 else 0
    elif model == "exponential":
        x = s * r.exponential()
    elif model == "beta":
        x = s * math.sin(math.pi * r.uniform() / 2) ** 2
    elif model == "gamma":
        x = s * 2 * (r.exponential() + r.exponential())
    elif model == "ndcs":
        x = 0.0
        while x <= 0:
            x = s + math.sqrt(s) * r.normal()
    elif model == "agent_uniform":
        x = sum(2 * strengths[i] * r.uniform() for i in range(mask.bit_length()) if mask >> i & 1)
    elif model == "agent_normal":
        x = sum(max(0.0, strengths[i] + 0.1 * r.normal()) for i in range(mask.bit_length()) if mask >> i & 1)
    elif model == "chi_square":
        x = r.chi_square(s)
    elif model == "weibull":
        x = s * 0.9 * r.exponential() ** (1 / s)
    elif model == "f":
        z = r.normal()
        x = z * z / (r.chi_square(s + 1) / (s + 1))
    elif model == "cauchy":
        x = max(0.0, 10 * s + 0.1 * math.tan(math.pi * (r.uniform() - 0.5)))
    elif model == "student_t":
        z = r.normal()
        x = max(0.0, s * z / math.sqrt(r.chi_square(s) / s))
    elif model == "zipf":
        sums = [sum(j ** -0.1 for j in range(1, k + 1)) for k in range(s + 1)]
        target = r.uniform() * sums[s]
        x = s * next((k for k in range(1, s) if target < sums[k]), s) + 50 * r.uniform()
    elif model == "pascal":
        u, k, below = r.uniform(), 0, 0.0  # the least k with u < P(K <= k), K ~ Pascal(s, 0.1)
        while u >= below + math.comb(k + s - 1, k) * 0.1 ** s * 0.9 ** k:
            below += math.comb(k + s - 1, k) * 0.1 ** s * 0.9 ** k
            k += 1
        x = s * k + 50 * r.uniform()
    return math.floor(1e8 * x + 0.5)


def agent_strengths(model, seed, agents):
    strengths = []
    for i in range(agents):
        r = Stream(seed, (1 << 48) | i)  # agent streams lie above every coalition's (1 << 60 after the shift)
        strengths.append(10 * r.uniform() if model == "agent_uniform" else max(0.0, 10 + 0.1 * r.normal()))
    return strengths


@pytest.mark.parametrize("model", ["uniform", "normal", "modified_uniform", "modified_normal", "exponential", "beta",
                                   "gamma", "ndcs", "agent_uniform", "agent_normal", "chi_square", "weibull", "f",
                                   "cauchy", "student_t", "zipf", "pascal"])
def test_generated_values_follow_the_published_formulas(model):
    agents, seed = 9, 11
    values = kollective.generate_game(model, agents, seed=seed)
    strengths = agent_strengths(model, seed, agents)
    for mask in (1, 2, 3, 5, 0b10110, 0b111111, 0b101010101, (1 << agents) - 1, 300, 467):
        expected = published_value(model, seed, mask, strengths)
        # Python's libm and the portable functions may differ in the last bit: one unit of 1e-8 at most.
        assert abs(values[mask] - expected) <= 1, (model, mask, values[mask], expected)


def skill_game(skills, tasks, rewards, cost):
    """A coalitional skill game (Bachrach and Rosenschein, AAMAS 2008), vectorized over masks:
    a coalition earns every task whose skills its members cover together, and pays cost per member."""
    skills = np.asarray(skills, dtype=np.uint64)

    def value(masks):
        covered = np.zeros(masks.shape, dtype=np.uint64)
        members = np.zeros(masks.shape, dtype=np.float64)
        for agent, held in enumerate(skills):
            inside = (masks >> np.uint64(agent)) & np.uint64(1) == 1
            covered[inside] |= held
            members += inside
        earned = sum(np.where(covered & np.uint64(t) == np.uint64(t), r, 0.0) for t, r in zip(tasks, rewards))
        return earned - cost * members
    return value


def test_a_value_function_solves_as_its_table():
    skills = [(1 << (i % 8)) | (1 << ((3 * i + 1) % 8)) for i in range(9)]
    game = skill_game(skills, [0x03, 0x0C, 0x30, 0xC0, 0x0F, 0x5A], [5, 7, 6, 9, 14, 12], 1.5)
    table = kollective.value_table(game, 9, chunk=100)  # several chunks
    assert table[0] == 0 and table.shape == (512,)
    masks = np.arange(512, dtype=np.uint64)
    assert np.array_equal(table[1:], game(masks[1:]))
    for method in ("idp", "ip", "auto"):
        result = kollective.coalition(game, agents=9, method=method)
        assert result.optimum == pytest.approx(brute_force(table, 9), rel=1e-12)
        assert result.optimum == kollective.coalition(table, method=method).optimum
    with pytest.raises(ValueError, match="shape"):
        kollective.value_table(lambda masks: masks[:1].astype(float), 4)
    with pytest.raises(ValueError, match="mask 3 is not finite"):
        kollective.value_table(lambda masks: np.where(masks == 3, np.inf, 1.0), 4)
    with pytest.raises(ValueError, match="agents"):
        kollective.value_table(game, 0)
    with pytest.raises(TypeError, match="agents="):
        kollective.coalition(table, agents=9)
