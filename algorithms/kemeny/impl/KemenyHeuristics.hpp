#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_HEURISTICS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_HEURISTICS_HPP

/// \file KemenyHeuristics.hpp
/// The host parts of Kemeny's solver: heuristic rankings (each an upper bound on the optimum)
/// and the Condorcet decomposition that splits a profile into independent components.

#include <cstdint>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

Ranking borda(const Counts& o);     ///< by sum over j of o[i][j], ties by index
Ranking copeland(const Counts& o);  ///< by pairwise wins (ties 1/2), then Borda
/// KwikSort (Ailon, Charikar, Newman): pivot recursively; deterministic for a given seed.
Ranking kwiksort(const Counts& o, std::uint64_t seed);
/// Improves a ranking by moving single alternatives to their best position until no move helps.
Ranking local_search(const Counts& o, Ranking ranking);
/// Best heuristic ranking: Borda, Copeland and KwikSort, each improved by local search.
Ranking best_heuristic(const Counts& o, std::uint64_t seed);

/// Strongly connected components of the majority graph (edge i -> j when o[i][j] >= o[j][i],
/// i != j), in the order they appear in every Kemeny ranking; each component lists its
/// alternatives in increasing index order.
std::vector<std::vector<int>> condorcet_components(const Counts& o);

/// The outranking matrix restricted to `alternatives` (in that order).
Counts restrict_to(const Counts& o, const std::vector<int>& alternatives);

}  // namespace kollective::kemeny

#endif
