#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_METRICS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_METRICS_HPP

/// \file KemenyMetrics.hpp
/// The Kemeny distance of a ranking and the pairwise lower bound on the optimum (both doubled).

#include <cstdint>

#include "algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// Kemeny distance (doubled): sum over pairs placed i above j of o[j][i].
std::uint64_t distance(const Counts& o, const Ranking& ranking);

/// Lower bound (doubled): sum over pairs of min(o[i][j], o[j][i]).
std::uint64_t lower_bound(const Counts& o);

}  // namespace kollective::kemeny

#endif
