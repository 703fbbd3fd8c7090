"""Kollective: exact collective decisions (Schulze, Kemeny, coalition structures, RankSVM) on
Kokkos, from Python. Kokkos starts when this package is imported and ends at exit.

    import kollective
    p = kollective.profile("election.soc")          # or numpy ranks, or a pref_voting profile
    kollective.schulze(p).winners
    kollective.kemeny(p).rankings
    kollective.coalition(values).structure
    kollective.RankSVM(C=1).fit(X, y, qid).predict(X)
"""

import atexit
import os

# Kokkos' OpenMP backend asks for thread binding; unbound threads suit a Python process that
# shares its cores with other libraries (the CLI binds them: scripts/kollective).
os.environ.setdefault("OMP_PROC_BIND", "false")

from . import _kollective  # noqa: E402  (starts Kokkos)
from ._kollective import Error  # noqa: E402
from .coalitions import CoalitionResult, coalition, generate_game, value_table  # noqa: E402
from .elections import (  # noqa: E402
    KemenyResult,
    Pairwise,
    Profile,
    SchulzeResult,
    from_orders,
    generate_profile,
    kemeny,
    pairwise,
    profile,
    schulze,
    write_preflib,
)
from .ranking import RankSVM, mean_ndcg, ndcg, pairwise_accuracy, read_letor  # noqa: E402
from . import results  # noqa: E402  (kollective.results.load: a campaign's results database)

atexit.register(_kollective.finalize)

backend = _kollective.backend()
__version__ = _kollective.version

__all__ = [
    "Error", "Profile", "Pairwise", "SchulzeResult", "KemenyResult", "CoalitionResult", "RankSVM",
    "profile", "from_orders", "generate_profile", "write_preflib", "pairwise", "schulze", "kemeny", "coalition",
    "generate_game", "value_table", "read_letor", "ndcg", "mean_ndcg", "pairwise_accuracy", "backend",
]
