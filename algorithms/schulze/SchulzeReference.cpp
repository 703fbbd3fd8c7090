#include "kollective/algorithms/schulze/SchulzeReference.hpp"

#include <algorithm>

#include "kollective/core/Error.hpp"

namespace kollective::schulze {

Result solve_reference(const preferences::PairwiseCounts& counts, LinkRule rule) {
  const int n = counts.alternatives;
  Result result;
  result.alternatives = n;
  result.strength_bits = 32;
  auto& p = result.paths;
  p.assign(static_cast<size_t>(n) * n, 0);
  auto at = [&](int i, int j) -> std::uint32_t& { return p[static_cast<size_t>(i) * n + j]; };
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const std::uint32_t forward = counts.at(i, j), backward = counts.at(j, i);
      if (i != j && forward > backward) at(i, j) = rule == LinkRule::margin ? forward - backward : forward;
    }
  }
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      if (i == k) continue;
      for (int j = 0; j < n; ++j) {
        if (j == i || j == k) continue;
        at(i, j) = std::max(at(i, j), std::min(at(i, k), at(k, j)));
      }
    }
  }
  result.beaten.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    bool winner = true;
    for (int j = 0; j < n; ++j) {
      if (at(i, j) > at(j, i)) ++result.beaten[i];
      if (at(j, i) > at(i, j)) winner = false;
    }
    if (winner) result.winners.push_back(i);
  }
  result.ranking = rank_by_beaten(result.beaten);
  return result;
}

std::string verify(const preferences::PairwiseCounts& counts, const Options& options, const Result& result) {
  const Result reference = solve_reference(counts, options.rule);
  if (result.winners != reference.winners) fail("verification failed: winner sets differ from the reference");
  if (result.beaten != reference.beaten) fail("verification failed: beaten counts differ from the reference");
  if (result.paths != reference.paths) fail("verification failed: strongest paths differ from the reference");
  return "reference";
}

}  // namespace kollective::schulze
