#include "kollective/algorithms/kemeny/KemenyReference.hpp"

#include <algorithm>
#include <numeric>

#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::kemeny {

BruteForceResult brute_force(const Counts& o) {
  if (o.alternatives > brute_force_max_alternatives) {
    fail("Kemeny brute force is limited to ", brute_force_max_alternatives, " alternatives (got ", o.alternatives, ")");
  }
  BruteForceResult result;
  Ranking ranking(o.alternatives);
  std::iota(ranking.begin(), ranking.end(), 0);
  result.distance = ~std::uint64_t{0};
  do {
    const std::uint64_t d = distance(o, ranking);
    if (d < result.distance) {
      result.distance = d;
      result.optima.clear();
    }
    if (d == result.distance) result.optima.push_back(ranking);
  } while (std::next_permutation(ranking.begin(), ranking.end()));
  return result;
}

void compare_optima(const Result& result, const IndependentOptima& other, int list_limit) {
  const std::string& against = other.method;
  if (result.distance != other.distance) fail("verification failed: distance differs from ", against);
  if (!result.count_known) {  // at least result.count optima, of which the listed ones
    if (result.count > other.count) fail("verification failed: more optimal rankings than ", against, " found");
    if (other.count <= static_cast<std::uint64_t>(list_limit)) {
      for (const Ranking& ranking : result.optima) {
        if (std::find(other.optima.begin(), other.optima.end(), ranking) == other.optima.end())
          fail("verification failed: a listed ranking is not among the optima of ", against);
      }
    }
    return;
  }
  if (result.count != other.count) fail("verification failed: number of optimal rankings differs from ", against);
  if (other.count <= static_cast<std::uint64_t>(list_limit)) {
    auto listed = result.optima;
    std::sort(listed.begin(), listed.end());
    if (listed != other.optima) fail("verification failed: optimal rankings differ from ", against);
  }
}

}  // namespace kollective::kemeny
