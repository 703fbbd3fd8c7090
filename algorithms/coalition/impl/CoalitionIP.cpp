#include "kollective/algorithms/coalition/impl/CoalitionIP.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::coalition {

namespace {

/// The `index`-th lowest set bit of `set` (0-based).
std::uint64_t nth_bit(std::uint64_t set, int index) {
  for (int k = 0; k < index; ++k) set &= set - 1;
  return set & (~set + 1);
}

/// The branch and bound inside one subspace: parts[depth] is the size of the next coalition, taken
/// from the agents `rest`. Besides the bound, a partial structure is dropped when a better
/// partition of the same agents is known (ODP-IP's local branch and bound: `known`, the best value
/// found for each set of agents, the DP's where it ran): swapping that partition in would beat
/// every structure that continues it.
class SubspaceSearch {
 public:
  SubspaceSearch(const Game& game, const SizeStatistics& stats, const Subspace& subspace, double slack,
                 std::vector<double>& known, IpResult& best)
      : v_(game.values),
        parts_(subspace.parts),
        slack_(slack),
        known_(known),
        best_(best),
        chosen_(parts_.size()),
        remaining_max_(parts_.size() + 1) {
    for (std::size_t d = 0; d <= parts_.size(); ++d) remaining_max_[d] = stats.bound(parts_, d);
  }

  void run(std::uint64_t all) {
    all_ = all;
    place(0, all, 0.0);
  }

 private:
  void improve(double value) {
    best_.value = value;
    best_.structure = chosen_;
    std::sort(best_.structure.begin(), best_.structure.end());
  }

  /// Whether the partial structure placed so far (agents `placed`, worth `value`, its newest
  /// coalition `coalition`) is dominated; if not, it is recorded as known.
  bool dominated(std::uint64_t placed, double value, std::uint64_t coalition) {
    if (known_[coalition] > v_[coalition] + slack_ || known_[placed] > value + slack_) return true;
    known_[placed] = std::max(known_[placed], value);
    return false;
  }

  void place(std::size_t depth, std::uint64_t rest, double value) {
    const int size = parts_[depth];
    if (depth + 1 == parts_.size()) {  // the last coalition is what is left
      ++best_.nodes;
      chosen_[depth] = rest;
      if (value + v_[rest] > best_.value) improve(value + v_[rest]);
      return;
    }
    // Equal sizes in a row: the lowest agents increase, so each structure is met once.
    const std::uint64_t above =
        depth > 0 && parts_[depth - 1] == size ? chosen_[depth - 1] & (~chosen_[depth - 1] + 1) : 0;
    const int available = __builtin_popcountll(rest);
    // Combinations of `size` of the `available` agents, as index masks (Gosper's hack).
    for (std::uint64_t pick = (std::uint64_t{1} << size) - 1; pick < (std::uint64_t{1} << available);) {
      std::uint64_t coalition = 0;
      for (std::uint64_t bits = pick; bits; bits &= bits - 1) coalition |= nth_bit(rest, __builtin_ctzll(bits));
      if ((coalition & (~coalition + 1)) > above) {
        ++best_.nodes;
        const double with = value + v_[coalition];
        if (may_beat(with + remaining_max_[depth + 1], best_.value, slack_) &&
            !dominated((all_ ^ rest) | coalition, with, coalition)) {
          chosen_[depth] = coalition;
          place(depth + 1, rest ^ coalition, with);
        }
      }
      const std::uint64_t low = pick & (~pick + 1), ripple = pick + low;
      pick = ripple | (((pick ^ ripple) >> 2) / low);
    }
  }

  const std::vector<double>& v_;
  const std::vector<int>& parts_;
  double slack_;
  std::vector<double>& known_;
  IpResult& best_;
  std::uint64_t all_ = 0;
  std::vector<std::uint64_t> chosen_;
  std::vector<double> remaining_max_;
};

}  // namespace

IpResult ip_reference(const Game& game, int dp_size) {
  if (dp_size < 0 || dp_size > game.agents) fail("coalition IP: dp_size ", dp_size, " outside 0..", game.agents);
  const int n = game.agents;
  if (n < 1 || n > ip_reference_max_agents)
    fail("the serial IP takes 1 to ", ip_reference_max_agents, " agents (got ", n, ")");
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  const Values values(game);
  const SizeStatistics stats = scan_all(values);

  // The DP's best values of the coalitions of at most dp_size agents start the known values.
  std::vector<double> known(game.values);
  if (dp_size > 1) {
    const std::vector<double> f = serial_dp_table(game, dp_size);
    for (std::uint64_t c = 1; c <= all; ++c)
      if (__builtin_popcountll(c) <= dp_size) known[c] = f[c];
  }
  const IpPlan plan = plan_subspaces(values, stats);
  IpResult best;
  best.value = plan.incumbent;
  best.structure = plan.incumbent_structure;
  best.subspaces = plan.subspaces;
  best.lower_bound_by_average = plan.lower_bound_by_average;
  for (const Subspace& subspace : plan.open) {
    if (!may_beat(subspace.upper, best.value, plan.slack)) break;  // so are all after it: bounds descend
    ++best.searched;
    SubspaceSearch(game, stats, subspace, plan.slack, known, best).run(all);
  }
  return best;
}

}  // namespace kollective::coalition
