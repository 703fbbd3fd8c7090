#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_TYPES_HPP

/// \file KemenyTypes.hpp
/// Kemeny rank aggregation on the host: distances, bounds, heuristics and the Condorcet
/// decomposition. Counts are the doubled pairwise counts of the preferences core (o[i][j] =
/// 2 x weight preferring i to j), so distances stay exact integers (halves from ties).

#include <cstdint>
#include <string>
#include <vector>

#include "core/preferences/Pairwise.hpp"

namespace kollective::kemeny {

using Ranking = std::vector<int>;  ///< alternatives, most preferred first
using Counts = preferences::PairwiseCounts;

/// Kemeny distance (doubled): sum over pairs placed i above j of o[j][i].
std::uint64_t distance(const Counts& o, const Ranking& ranking);

/// Lower bound (doubled): sum over pairs of min(o[i][j], o[j][i]).
std::uint64_t lower_bound(const Counts& o);

/// Heuristic rankings (each gives an upper bound on the optimum).
Ranking borda(const Counts& o);     ///< by sum over j of o[i][j], ties by index
Ranking copeland(const Counts& o);  ///< by pairwise wins (ties 1/2), then Borda
/// KwikSort (Ailon, Charikar, Newman): pivot recursively; deterministic for a given seed.
Ranking kwiksort(const Counts& o, std::uint64_t seed);
/// Improves a ranking by moving single alternatives to their best position until no move helps.
Ranking local_search(const Counts& o, Ranking ranking);

/// Strongly connected components of the majority graph (edge i -> j when o[i][j] >= o[j][i],
/// i != j), in the order they appear in every Kemeny ranking; each component lists its
/// alternatives in increasing index order.
std::vector<std::vector<int>> condorcet_components(const Counts& o);

/// The outranking matrix restricted to `alternatives` (in that order).
Counts restrict_to(const Counts& o, const std::vector<int>& alternatives);

/// All Kemeny rankings by brute force over n! permutations (serial reference, n <= 10).
struct BruteForceResult {
  std::uint64_t distance = 0;
  std::vector<Ranking> optima;  ///< all optimal rankings, lexicographic order
};
BruteForceResult brute_force(const Counts& o);

/// "B > D > A > C" with names.
std::string format_ranking(const Ranking& ranking, const std::vector<std::string>& names);

}  // namespace kollective::kemeny

#endif
