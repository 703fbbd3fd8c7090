#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_OPTIMA_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_OPTIMA_HPP

/// \file KemenyOptima.hpp
/// The listing of every optimal ranking after branch and cut has proven the optimum
/// (KemenySearch.hpp).

#include <cstddef>
#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/algorithms/kemeny/impl/KemenySearch.hpp"

namespace kollective::kemeny {

/// Replaces the one optimal ranking of a proven search by a listing of the optima, with the root
/// LP solved again with every cut the search found: its reduced costs fix the pairs that no
/// optimum can flip, and its prices bound the rest of the listing. Lists at most `limit` and counts
/// on for a fixed number of steps (`count_exact` says whether the count is whole).
void list_optima(const Counts& o, TriangleLp& lp, const std::vector<signed char>& known, SearchResult& result,
                 std::size_t limit, double max_seconds);

}  // namespace kollective::kemeny

#endif
