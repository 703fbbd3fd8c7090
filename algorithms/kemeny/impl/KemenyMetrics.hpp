#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_METRICS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_METRICS_HPP

/// \file KemenyMetrics.hpp
/// The Kemeny distance of a ranking and the pairwise lower bound on the optimum (both doubled),
/// and what a distance of the counts is in the input's own weights (signed weights are held as
/// margins with a shift: Pairwise.hpp) and as the linear ordering problem's value.

#include <cstdint>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// Kemeny distance (doubled): sum over pairs placed i above j of o[j][i].
std::uint64_t distance(const Counts& o, const Ranking& ranking);

/// Each alternative's place in a ranking: ranking[places(ranking)[a]] == a.
std::vector<int> places(const Ranking& ranking);

/// Lower bound (doubled): sum over pairs of min(o[i][j], o[j][i]).
std::uint64_t lower_bound(const Counts& o);

/// A distance of the counts (doubled) in the input's own weights: distance + o.shift (negative
/// for some signed weights).
std::int64_t input_distance(const Counts& o, std::uint64_t distance);

/// The linear ordering value (doubled) of a ranking of this distance: the sum over pairs placed i
/// before j of the input's weight of i over j, which is the sum of every pair's weights less the
/// ranking's input_distance. Maximising it is minimising the distance.
std::int64_t lop_value(const Counts& o, std::uint64_t distance);

}  // namespace kollective::kemeny

#endif
