"""Elections: profiles, the pairwise matrix, Schulze winners and Kemeny rankings.

Alternatives are numbered 0..n-1 in every result; `names` maps them to the input's names.
Counts are in voters: a voter who ties i and j gives each side 1/2, and a voter who ranks i but
not j prefers i (PrefLib's reading of incomplete ballots).
"""

import copyreg
import functools
import numbers
import os
import warnings
from typing import Optional

import numpy as np

from . import _arrays, _kollective, _options, _results

Profile = _kollective.Profile


def write_preflib(profile, path):
    """Writes a Profile as a PrefLib file at `path` (str or path-like), of the data type its
    ballots need (soc, soi, toc or toi)."""
    if not isinstance(profile, Profile):
        raise TypeError(f"write_preflib: profile must be a kollective.Profile (kollective.profile(...) makes one), "
                        f"not {type(profile).__name__}")
    _kollective.write_preflib(profile, os.fspath(path))


def _profile_state(source):
    """A Profile for pickle (multiprocessing's workers): its ballots as ranks, weights, names, title."""
    ranks, weights = _kollective.profile_ranks(source)
    return _unpickled_profile, (ranks, weights, list(source.names), source.title)


def _unpickled_profile(ranks, weights, names, title):
    return _kollective.profile_from_ranks(ranks, weights, names, title)


copyreg.pickle(Profile, _profile_state)


def profile(data, weights=None, names=None) -> Profile:
    """A profile from a PrefLib file path, a numpy array of ranks, a pref_voting profile (Profile
    or ProfileWithTies, read by duck typing) or a Profile (returned as is).

    A rank array has one row per ballot: ranks[v, a] is the place of alternative a in ballot v
    (smaller is preferred, equal places tie, a negative place leaves a unranked). `weights`: how
    many voters cast each ballot (default 1 each); `names`: one per alternative (default 1..n).
    """
    if isinstance(data, (Profile, str, os.PathLike)) and (weights is not None or names is not None):
        raise ValueError("weights and names go with rank arrays: a PrefLib file or a Profile carries its own")
    if isinstance(data, Profile):
        return data
    if isinstance(data, (str, os.PathLike)):
        return _kollective.read_preflib(_arrays.existing_file(data, "PrefLib file"))
    if hasattr(data, "rankings_counts") and hasattr(data, "candidates"):
        return _from_pref_voting(data)
    ranks = _arrays.numeric(data, "rankings", 2, np.int64, integral=True)
    return _from_ranks(ranks, weights, names)


def from_orders(orders, weights=None, names=None, alternatives=None) -> Profile:
    """A profile of strict orders: orders[v] lists alternatives (0..n-1) from most preferred;
    alternatives a row leaves out are unranked. `alternatives` defaults to the largest index + 1."""
    orders = _arrays.numeric(orders, "orders", 2, np.int64, integral=True)
    largest = int(orders.max()) + 1 if orders.size else 0
    n = largest if alternatives is None else _arrays.whole(alternatives, "alternatives", max(largest, 1), 1 << 20)
    if orders.size and (orders.min() < 0 or orders.max() >= n):
        raise ValueError(f"orders must hold alternatives 0..{n - 1}, got {orders.min()}..{orders.max()}")
    ranks = np.full((orders.shape[0], n), -1, dtype=np.int64)
    for v, order in enumerate(orders):
        if len(set(order.tolist())) != len(order):
            raise ValueError(f"orders[{v}] lists an alternative twice: {order.tolist()}")
        ranks[v, order] = np.arange(len(order))
    return _from_ranks(ranks, weights, names)


def _from_ranks(ranks, weights, names) -> Profile:
    voters, n = ranks.shape
    if voters == 0:  # as a PrefLib file without orders is refused
        raise ValueError("a profile needs at least one ballot, got none")
    if weights is None:
        weights = np.ones(voters, dtype=np.int64)
    weights = _arrays.numeric(weights, "weights", 1, np.int64, integral=True)
    _arrays.same_length("rankings", ranks, "weights", weights)
    return _kollective.profile_from_ranks(ranks, weights, _arrays.names_of(names, n))


def _from_pref_voting(source) -> Profile:
    """pref_voting's Profile (orders as an array) or ProfileWithTies (Ranking objects whose rmap
    gives each ranked candidate's place); candidates in the order of source.candidates."""
    rankings, counts = source.rankings_counts
    candidates = list(source.candidates)
    index = {candidate: a for a, candidate in enumerate(candidates)}
    ranks = np.full((len(counts), len(candidates)), -1, dtype=np.int64)
    for v, ranking in enumerate(rankings):
        places = ranking.rmap.items() if hasattr(ranking, "rmap") else ((c, k) for k, c in enumerate(ranking))
        for candidate, place in places:
            ranks[v, index[candidate]] = place
    cmap = getattr(source, "cmap", None) or {}
    names = [str(cmap.get(candidate, candidate)) for candidate in candidates]
    return _from_ranks(ranks, _arrays.numeric(counts, "the profile's counts", 1, np.int64, integral=True), names)


def generate_profile(model, alternatives, voters, phi=0.5, seed=1) -> Profile:
    """A seeded profile: model "impartial_culture", "mallows", "mallows_mixture" (phi) or
    "kemeny_benchmark", as in the YAML configs' generators."""
    alternatives = _arrays.whole(alternatives, "alternatives", 1, 100000)
    voters = _arrays.whole(voters, "voters", 1, (1 << 31) - 1)
    seed = _arrays.whole(seed, "seed", 0, (1 << 63) - 1)
    if not isinstance(phi, numbers.Real) or isinstance(phi, bool) or not 0 <= phi <= 1:
        raise ValueError(f"phi must be a number in [0, 1], got {phi!r}")
    return _kollective.generate_profile(model, alternatives, voters, float(phi), seed)


class Pairwise:
    """The pairwise matrix: counts[i, j] voters prefer i to j (halves from ties)."""

    def __init__(self, doubled, names=None):
        """From doubled counts (2 counts[i, j], whole numbers from 0 to 2^32 - 1, 0 on the diagonal)."""
        doubled = _arrays.numeric(doubled, "doubled", 2, np.int64, integral=True)
        n = doubled.shape[0]
        if doubled.shape != (n, n):
            raise ValueError(f"the pairwise matrix must be square, got shape {doubled.shape}")
        if doubled.size and (doubled.min() < 0 or doubled.max() > 0xFFFFFFFF):
            raise ValueError("doubled counts must be whole numbers from 0 to 2^32 - 1")
        if np.any(np.diag(doubled) != 0):
            raise ValueError("the pairwise matrix must be 0 on the diagonal")
        self.doubled = doubled.astype(np.uint32)  # what the solvers take
        self.names = _arrays.names_of(names, n)
        if len(self.names) != n:
            raise ValueError(f"{len(self.names)} names for {n} alternatives")

    def __repr__(self):
        shown = ", ".join(self.names[:8]) + (", ..." if len(self.names) > 8 else "")
        return f"Pairwise({self.alternatives} alternatives: {shown})"

    @property
    def counts(self):
        return self.doubled / 2.0

    @property
    def margins(self):
        return (self.doubled.astype(np.int64) - self.doubled.T.astype(np.int64)) / 2.0

    @property
    def alternatives(self):
        return self.doubled.shape[0]

    @classmethod
    def from_counts(cls, counts, names=None):
        """From an n x n matrix of counts: whole or ending in .5, 0 on the diagonal."""
        doubled = 2 * _arrays.numeric(counts, "counts", 2, np.float64)
        if np.any(doubled != np.floor(doubled)):
            raise ValueError("counts must be whole or end in .5")
        return cls(doubled, names)

    @classmethod
    def read_csv(cls, path):
        """A pairwise CSV as the CLI reads it (errors name the file and line)."""
        doubled, names = _kollective.read_pairwise_csv(_arrays.existing_file(path, "pairwise CSV"))
        return cls(doubled, names)


def pairwise(election, weights=None, names=None) -> Pairwise:
    """The pairwise matrix of anything profile() accepts, or a Pairwise (returned as is). A square
    array with a zero diagonal is refused: it reads as a pairwise matrix as well as the ranks of n
    ballots, so say which (Pairwise.from_counts, or profile)."""
    if isinstance(election, Pairwise):
        return election
    if not isinstance(election, (Profile, str, os.PathLike)) and not hasattr(election, "rankings_counts"):
        array = np.asarray(election)
        if array.ndim == 2 and array.shape[0] == array.shape[1] > 1 and np.all(np.diag(array) == 0):
            n = array.shape[0]
            raise ValueError(
                f"a square {n} x {n} array with a zero diagonal may be a pairwise matrix or the ranks of {n} "
                f"ballots: pass kollective.Pairwise.from_counts(matrix) for counts (matrix[i, j] voters prefer "
                f"i to j), or kollective.profile(ranks) for ballots")
    source = profile(election, weights, names)
    return Pairwise(_kollective.doubled_pairwise(source), source.names)


def _paths_flag(paths):
    if not isinstance(paths, bool):
        raise TypeError(f"paths must be True or False, got {paths!r}")
    return paths


class SchulzeResult(_results.Result):
    """Schulze's result: the declared fields (SchulzeResult.fields(); winners and ranking_head as
    indices), and ranking (groups by the number of alternatives each beats, most first), beaten
    (per alternative, how many it beats), doubled_paths (twice the strongest-path strengths, when
    paths=True), names, solve_s (the solve in C++)."""

    _algorithm = "schulze"

    @functools.cached_property
    def paths(self) -> Optional[np.ndarray]:
        """Strongest-path strengths in voters (halves from ties), when the solve kept them."""
        return None if self.doubled_paths is None else self.doubled_paths / 2.0


def schulze(election, *, paths=True, **options) -> SchulzeResult:
    """Schulze's method on anything pairwise() accepts; paths: keep the strongest-path matrix."""
    matrix = pairwise(election)
    return SchulzeResult(_kollective.schulze(matrix.doubled, _options.given(options), _paths_flag(paths)),
                         names=matrix.names)


_options.declare(schulze, "schulze")


class KemenyResult(_results.Result):
    """Kemeny's result: the declared fields (KemenyResult.fields(); distances in voters, consensus
    as indices), and rankings (the optimal rankings listed, or the best one found),
    component_sizes (in ranking order), names, solve_s (the solve in C++)."""

    _algorithm = "kemeny"

    @property
    def components(self):
        """The Condorcet components' sizes, as before; in the next release the number of
        components, as the tables' `components` (component_sizes keeps the sizes)."""
        warnings.warn("KemenyResult.components becomes the number of components in the next release; "
                      "use component_sizes for the sizes (CHANGELOG.md)", FutureWarning, stacklevel=2)
        return self.component_sizes


def kemeny(election, **options) -> KemenyResult:
    """Kemeny's optimal rankings of anything pairwise() accepts."""
    matrix = pairwise(election)
    return KemenyResult(_kollective.kemeny(matrix.doubled, _options.given(options)), names=matrix.names)


_options.declare(kemeny, "kemeny")
