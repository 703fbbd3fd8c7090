#include "kollective/algorithms/coalition/CoalitionIP.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "kollective/core/Error.hpp"

namespace kollective::coalition {

namespace {

/// Per coalition size s: the largest value, the mean value with a bound on its rounding error,
/// and the largest |v|.
struct SizeStatistics {
  std::vector<double> max, average, average_error, magnitude;
};

/// Every integer partition of n, parts ascending.
std::vector<std::vector<int>> integer_partitions(int n) {
  std::vector<std::vector<int>> all;
  std::vector<int> parts;
  auto extend = [&](auto&& self, int left, int smallest) -> void {
    if (left == 0) {
      all.push_back(parts);
      return;
    }
    for (int part = smallest; part <= left; ++part) {
      if (left - part != 0 && left - part < part) continue;  // the rest must fit in parts >= part
      parts.push_back(part);
      self(self, left - part, part);
      parts.pop_back();
    }
  };
  extend(extend, n, 1);
  return all;
}

/// The `index`-th lowest set bit of `set` (0-based).
std::uint64_t nth_bit(std::uint64_t set, int index) {
  for (int k = 0; k < index; ++k) set &= set - 1;
  return set & (~set + 1);
}

/// The branch and bound inside one subspace: parts[depth] is the size of the next coalition,
/// taken from the agents `rest`.
class SubspaceSearch {
 public:
  SubspaceSearch(const Game& game, const SizeStatistics& stats, const std::vector<int>& parts, IpResult& best)
      : v_(game.values), stats_(stats), parts_(parts), best_(best), chosen_(parts.size()) {
    // remaining_max_[d]: the sum of Max over parts d.., and its magnitude for the slack.
    remaining_max_.assign(parts.size() + 1, 0.0);
    remaining_magnitude_.assign(parts.size() + 1, 0.0);
    for (int d = static_cast<int>(parts.size()) - 1; d >= 0; --d) {
      remaining_max_[d] = remaining_max_[d + 1] + stats.max[parts[d]];
      remaining_magnitude_[d] = remaining_magnitude_[d + 1] + stats.magnitude[parts[d]];
    }
  }

  void run(std::uint64_t all) { place(0, all, 0.0, 0.0); }

 private:
  /// Whether a structure that continues one worth `value` (of `magnitude`) with parts depth.. could
  /// have a computed value above the incumbent. The slack covers the rounding of both sums (at
  /// most k additions each, k parts).
  bool may_beat(int depth, double value, double magnitude) const {
    const double slack = 4.0 * static_cast<double>(parts_.size()) * DBL_EPSILON *
                         (magnitude + remaining_magnitude_[depth] + std::fabs(best_.value));
    return value + remaining_max_[depth] + slack > best_.value;
  }

  void place(std::size_t depth, std::uint64_t rest, double value, double magnitude) {
    const int size = parts_[depth];
    if (depth + 1 == parts_.size()) {  // the last coalition is what is left
      ++best_.nodes;
      const double total = value + v_[rest];
      if (total > best_.value) {
        chosen_[depth] = rest;
        best_.value = total;
        best_.structure.assign(chosen_.begin(), chosen_.end());
        std::sort(best_.structure.begin(), best_.structure.end());
      }
      return;
    }
    // Equal sizes in a row: the lowest agents increase, so each structure is met once.
    const std::uint64_t above = depth > 0 && parts_[depth - 1] == size ? chosen_[depth - 1] & (~chosen_[depth - 1] + 1) : 0;
    const int available = __builtin_popcountll(rest);
    // Combinations of `size` of the `available` agents, as index masks (Gosper's hack).
    for (std::uint64_t pick = (std::uint64_t{1} << size) - 1; pick < (std::uint64_t{1} << available);) {
      std::uint64_t coalition = 0;
      for (std::uint64_t bits = pick; bits; bits &= bits - 1) coalition |= nth_bit(rest, __builtin_ctzll(bits));
      const std::uint64_t lowest = coalition & (~coalition + 1);
      if (lowest > above) {
        ++best_.nodes;
        const double with = value + v_[coalition];
        const double with_magnitude = magnitude + std::fabs(v_[coalition]);
        if (may_beat(static_cast<int>(depth) + 1, with, with_magnitude)) {
          chosen_[depth] = coalition;
          place(depth + 1, rest ^ coalition, with, with_magnitude);
        }
      }
      const std::uint64_t low = pick & (~pick + 1), ripple = pick + low;
      pick = ripple | (((pick ^ ripple) >> 2) / low);
    }
  }

  const std::vector<double>& v_;
  const SizeStatistics& stats_;
  const std::vector<int>& parts_;
  IpResult& best_;
  std::vector<std::uint64_t> chosen_;
  std::vector<double> remaining_max_, remaining_magnitude_;
};

}  // namespace

IpResult ip_reference(const Game& game) {
  const int n = game.agents;
  if (n < 1 || n > ip_reference_max_agents) fail("the serial IP takes 1 to ", ip_reference_max_agents, " agents (got ", n, ")");
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  SizeStatistics stats;
  stats.max.assign(n + 1, -INFINITY);
  stats.average.assign(n + 1, 0.0);
  stats.magnitude.assign(n + 1, 0.0);
  stats.average_error.assign(n + 1, 0.0);
  std::vector<double> count(n + 1, 0.0), absolute(n + 1, 0.0);
  IpResult best;
  best.value = game.values[all];  // the subspace {n}
  best.structure = {all};
  for (std::uint64_t c = 1; c < all; ++c) {  // the statistics, and the two-part subspaces scanned
    const int s = __builtin_popcountll(c);
    const double value = game.values[c];
    stats.max[s] = std::max(stats.max[s], value);
    stats.average[s] += value;
    stats.magnitude[s] = std::max(stats.magnitude[s], std::fabs(value));
    absolute[s] += std::fabs(value);
    count[s] += 1;
    if (c < (all ^ c) && value + game.values[all ^ c] > best.value) {
      best.value = value + game.values[all ^ c];
      best.structure = {c, all ^ c};
    }
  }
  stats.max[n] = stats.average[n] = game.values[all];
  stats.magnitude[n] = std::fabs(game.values[all]);
  // A sum of N terms in order errs by at most (N - 1) eps/2 times the sum of their |v|, so the
  // mean by less than eps/2 times that sum (and its division by eps/2 of itself): eps times the
  // sum of |v| covers both.
  for (int s = 1; s < n; ++s) {
    stats.average[s] /= count[s];
    stats.average_error[s] = DBL_EPSILON * (absolute[s] + std::fabs(stats.average[s]));
  }

  std::vector<std::vector<int>> partitions = integer_partitions(n);
  best.subspaces = static_cast<std::int64_t>(partitions.size());
  struct Bounded {
    double upper, magnitude;
    const std::vector<int>* parts;
  };
  std::vector<Bounded> open;
  best.lower_bound_by_average = -INFINITY;
  for (const std::vector<int>& parts : partitions) {
    double upper = 0, average = 0, magnitude = 0, error = 0;
    for (const int part : parts) {
      upper += stats.max[part];
      average += stats.average[part];
      magnitude += stats.magnitude[part];
      error += stats.average_error[part] + static_cast<double>(parts.size()) * DBL_EPSILON * std::fabs(stats.average[part]);
    }
    // Some structure of this subspace is worth at least its mean: a lower bound on the optimum,
    // less the bound on its rounding.
    best.lower_bound_by_average = std::max(best.lower_bound_by_average, average - error);
    if (parts.size() >= 3) open.push_back({upper, magnitude, &parts});
  }
  std::sort(open.begin(), open.end(), [](const Bounded& a, const Bounded& b) { return a.upper > b.upper; });
  for (const Bounded& subspace : open) {
    // Pruned when its bound cannot beat the incumbent or a structure of average value (AVG_I is
    // reached by some structure of subspace I, whose computed value may round below it).
    const double slack = 4.0 * static_cast<double>(subspace.parts->size()) * DBL_EPSILON *
                         (subspace.magnitude + std::fabs(best.value) + std::fabs(best.lower_bound_by_average));
    if (subspace.upper + slack <= best.value) break;  // so are all after it: bounds descend
    if (subspace.upper + slack < best.lower_bound_by_average) continue;
    ++best.searched;
    SubspaceSearch(game, stats, *subspace.parts, best).run(all);
  }
  return best;
}

}  // namespace kollective::coalition
