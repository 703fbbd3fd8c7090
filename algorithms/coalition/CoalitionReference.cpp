#include "kollective/algorithms/coalition/CoalitionReference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::coalition {

BruteForceResult brute_force(Values values) {
  if (values.agents > brute_force_max_agents) {
    fail("coalition brute force is limited to ", brute_force_max_agents, " agents (got ", values.agents, ")");
  }
  BruteForceResult best;
  best.value = -INFINITY;
  Structure current;
  // Every set partition: the lowest unassigned agent joins a new coalition with any subset of the rest.
  std::function<void(std::uint64_t, double)> visit = [&](std::uint64_t rest, double value) {
    if (rest == 0) {
      if (value > best.value) {
        best.value = value;
        best.structure = current;
      }
      return;
    }
    const std::uint64_t lowest = rest & (~rest + 1);
    const std::uint64_t others = rest ^ lowest;
    for (std::uint64_t sub = others;; sub = (sub - 1) & others) {
      const std::uint64_t coalition = lowest | sub;
      current.push_back(coalition);
      visit(rest ^ coalition, value + values.v[coalition]);
      current.pop_back();
      if (sub == 0) break;
    }
  };
  visit((std::uint64_t{1} << values.agents) - 1, 0.0);
  std::sort(best.structure.begin(), best.structure.end());
  return best;
}

std::vector<double> serial_dp_table(const Game& game, int largest) {
  if (game.agents > 24) fail("the serial coalition DP is limited to 24 agents (got ", game.agents, ")");
  std::vector<double> f(game.values.size(), -INFINITY);
  f[0] = 0;
  for (std::uint64_t set = 1; set < f.size(); ++set) {
    if (__builtin_popcountll(set) > largest) continue;
    f[set] = game.values[set];
    const std::uint64_t lowest = set & (~set + 1), others = set ^ lowest;
    // Parts holding the lowest agent, other than the whole set: each unordered split once.
    for (std::uint64_t sub = (others - 1) & others; sub != others; sub = (sub - 1) & others) {
      const std::uint64_t part = lowest | sub;
      f[set] = std::max(f[set], f[part] + f[set ^ part]);
      if (sub == 0) break;
    }
  }
  return f;
}

double serial_dp(const Game& game) { return serial_dp_table(game, game.agents).back(); }

std::string verify(Values values, const Options&, const Result& result) {
  if (values.agents > brute_force_max_agents) return "";
  const BruteForceResult brute = brute_force(values);
  const double tolerance =
      value_tolerance(result.precision == Precision::float32) * std::max(1.0, std::fabs(brute.value));
  if (result.exact && std::fabs(brute.value - result.value) > tolerance) {
    fail("verification failed: optimum ", result.value, " differs from brute force ", brute.value);
  }
  if (!result.exact && (result.value > brute.value + tolerance || brute.value > result.upper_bound + tolerance)) {
    fail("verification failed: brute force's optimum ", brute.value, " is not between the best structure found, ",
         result.value, ", and the bound ", result.upper_bound);
  }
  return "brute force";
}

}  // namespace kollective::coalition
