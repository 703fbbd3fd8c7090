#ifndef KOLLECTIVE_TESTS_KEMENY_SEARCH_CASES_HPP
#define KOLLECTIVE_TESTS_KEMENY_SEARCH_CASES_HPP

// The local searches' test cases (host chains and chains on a space): tournaments of 18 with the
// subset DP's optimum and Borda's ranking to start from.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

struct SearchCase {
  kemeny::Counts o;
  std::uint64_t optimum = 0;  ///< the subset DP's
  kemeny::Ranking start;      ///< Borda's
};

inline SearchCase search_case(std::uint64_t seed) {
  SearchCase tested;
  tested.o = random_tournament(18, 3, seed);
  kemeny::Options dp;
  dp.method = kemeny::Method::dp;
  dp.count = false;
  tested.optimum = kemeny::solve(Kokkos::DefaultHostExecutionSpace(), tested.o, dp).distance;
  tested.start = kemeny::borda(tested.o);
  return tested;
}

/// Whether `ranking` orders each of 0..n-1 once.
inline bool is_ranking(kemeny::Ranking ranking, int n) {
  if (static_cast<int>(ranking.size()) != n) return false;
  std::sort(ranking.begin(), ranking.end());
  for (int a = 0; a < n; ++a) {
    if (ranking[a] != a) return false;
  }
  return true;
}

}  // namespace kollective::test

#endif
