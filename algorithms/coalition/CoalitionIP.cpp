#include "kollective/algorithms/coalition/CoalitionIP.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "kollective/core/Error.hpp"

namespace kollective::coalition {

namespace {

/// Per coalition size s: the n / s largest values, descending (a structure has at most n / s
/// coalitions of size s, and m of them are worth at most the m largest: a tighter bound than m
/// times the largest, as ODP-IP bounds), the mean value with a bound on its rounding error, and
/// the largest |v|.
struct SizeStatistics {
  std::vector<std::vector<double>> largest;
  std::vector<double> average, average_error, magnitude;

  void offer(int size, double value, int agents) {
    std::vector<double>& top = largest[size];
    const std::size_t most = static_cast<std::size_t>(agents / size);
    if (top.size() == most && value <= top.back()) return;
    if (top.size() == most) top.pop_back();
    top.insert(std::upper_bound(top.begin(), top.end(), value, std::greater<double>()), value);
  }
  /// The bound of parts[from..] (ascending): per size, the sum of as many largest values as parts.
  double bound(const std::vector<int>& parts, std::size_t from) const {
    double sum = 0;
    for (std::size_t k = from, run = 0; k < parts.size(); ++k) {
      run = k > from && parts[k - 1] == parts[k] ? run + 1 : 0;
      sum += largest[parts[k]][run];
    }
    return sum;
  }
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

/// Appends a partition of `set` worth f[set]: the split the DP took (its sums are exact replays).
void append_best_partition(const std::vector<double>& f, const std::vector<double>& v, std::uint64_t set,
                           Structure& out) {
  if (f[set] == v[set]) {
    out.push_back(set);
    return;
  }
  const std::uint64_t lowest = set & (~set + 1), others = set ^ lowest;
  for (std::uint64_t sub = (others - 1) & others; sub != others; sub = (sub - 1) & others) {
    const std::uint64_t part = lowest | sub;
    if (f[part] + f[set ^ part] == f[set]) {
      append_best_partition(f, v, part, out);
      append_best_partition(f, v, set ^ part, out);
      return;
    }
    if (sub == 0) break;
  }
  fail("coalition IP: no split of ", set, " gives its DP value (internal error)");
}

/// At least the sum of |v| over any partition of `tail` agents (at most `tail` coalitions).
double tail_magnitude(const SizeStatistics& stats, int tail) {
  double largest = 0;
  for (int s = 1; s <= tail; ++s) largest = std::max(largest, stats.magnitude[s]);
  return tail * largest;
}

/// A subspace as the branch and bound searches it: the sizes of the coalitions it places
/// (`head`, ascending: on IDP^G's values at n = 16, placing the largest first took 75 s against
/// 0.04 s) and the agents left for the DP's best partition (`tail`, 0 for none).
struct Subspace {
  std::vector<int> head;
  int tail = 0;
  double upper = 0, magnitude = 0;
};

/// The branch and bound inside one subspace: head[depth] is the size of the next coalition, taken
/// from the agents `rest`; with a tail, the agents left take the DP's best partition.
class SubspaceSearch {
 public:
  SubspaceSearch(const Game& game, const SizeStatistics& stats, const Subspace& subspace, const std::vector<double>& f,
                 const std::vector<double>& f_max, IpResult& best)
      : v_(game.values), f_(f), parts_(subspace.head), tail_(subspace.tail), best_(best), chosen_(parts_.size()) {
    // remaining_max_[d]: the bound of parts d.. and the tail, and its magnitude for the slack.
    remaining_max_.assign(parts_.size() + 1, tail_ > 0 ? f_max[tail_] : 0.0);
    remaining_magnitude_.assign(parts_.size() + 1, tail_magnitude(stats, tail_));
    const std::vector<int>& parts = parts_;
    for (int d = static_cast<int>(parts.size()) - 1; d >= 0; --d) {
      remaining_max_[d] = remaining_max_[parts_.size()] + stats.bound(parts, static_cast<std::size_t>(d));
      remaining_magnitude_[d] = remaining_magnitude_[d + 1] + stats.magnitude[parts[d]];
    }
  }

  void run(std::uint64_t all) { place(0, all, 0.0, 0.0); }

 private:
  /// Whether a structure that continues one worth `value` (of `magnitude`) with parts depth.. could
  /// have a computed value above the incumbent. The slack covers the rounding of both sums (at
  /// most k additions each, k parts).
  bool may_beat(int depth, double value, double magnitude) const {
    const double slack = 4.0 * static_cast<double>(parts_.size() + tail_) * DBL_EPSILON *
                         (magnitude + remaining_magnitude_[depth] + std::fabs(best_.value));
    return value + remaining_max_[depth] + slack > best_.value;
  }

  void place(std::size_t depth, std::uint64_t rest, double value, double magnitude) {
    if (depth == parts_.size()) {  // the tail: the DP's best partition of what is left
      ++best_.nodes;
      if (value + f_[rest] > best_.value) {
        best_.value = value + f_[rest];
        best_.structure.assign(chosen_.begin(), chosen_.end());
        append_best_partition(f_, v_, rest, best_.structure);
        std::sort(best_.structure.begin(), best_.structure.end());
      }
      return;
    }
    const int size = parts_[depth];
    if (depth + 1 == parts_.size() && tail_ == 0) {  // the last coalition is what is left
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
    const std::uint64_t above =
        depth > 0 && parts_[depth - 1] == size ? chosen_[depth - 1] & (~chosen_[depth - 1] + 1) : 0;
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
  const std::vector<double>& f_;
  const std::vector<int>& parts_;
  int tail_;
  IpResult& best_;
  std::vector<std::uint64_t> chosen_;
  std::vector<double> remaining_max_, remaining_magnitude_;
};

}  // namespace

IpResult ip_reference(const Game& game, int dp_size) {
  if (dp_size < 0 || dp_size > game.agents) fail("coalition IP: dp_size ", dp_size, " outside 0..", game.agents);
  const int n = game.agents;
  if (n < 1 || n > ip_reference_max_agents)
    fail("the serial IP takes 1 to ", ip_reference_max_agents, " agents (got ", n, ")");
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  SizeStatistics stats;
  stats.largest.assign(n + 1, {});
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
    stats.offer(s, value, n);
    stats.average[s] += value;
    stats.magnitude[s] = std::max(stats.magnitude[s], std::fabs(value));
    absolute[s] += std::fabs(value);
    count[s] += 1;
    if (c < (all ^ c) && value + game.values[all ^ c] > best.value) {
      best.value = value + game.values[all ^ c];
      best.structure = {c, all ^ c};
    }
  }
  stats.largest[n] = {game.values[all]};
  stats.average[n] = game.values[all];
  stats.magnitude[n] = std::fabs(game.values[all]);
  // A sum of N terms in order errs by at most (N - 1) eps/2 times the sum of their |v|, so the
  // mean by less than eps/2 times that sum (and its division by eps/2 of itself): eps times the
  // sum of |v| covers both.
  for (int s = 1; s < n; ++s) {
    stats.average[s] /= count[s];
    stats.average_error[s] = DBL_EPSILON * (absolute[s] + std::fabs(stats.average[s]));
  }

  // The DP's best values of the coalitions of at most dp_size agents, and their largest per size.
  const std::vector<double> f = dp_size > 0 ? serial_dp_table(game, dp_size) : std::vector<double>();
  std::vector<double> f_max(n + 1, -INFINITY);
  for (std::uint64_t c = 1; c < f.size(); ++c) {
    const int s = __builtin_popcountll(c);
    if (s <= dp_size) f_max[s] = std::max(f_max[s], f[c]);
  }

  std::vector<std::vector<int>> partitions = integer_partitions(n);
  best.subspaces = static_cast<std::int64_t>(partitions.size());
  // Each partition of three parts or more as a subspace; with the DP, those whose smallest parts
  // add up to the same tail of at most dp_size agents behind the same head are one subspace.
  std::map<std::vector<int>, Subspace> open;
  best.lower_bound_by_average = -INFINITY;
  for (const std::vector<int>& parts : partitions) {
    double average = 0, error = 0;
    for (const int part : parts) {
      average += stats.average[part];
      error +=
          stats.average_error[part] + static_cast<double>(parts.size()) * DBL_EPSILON * std::fabs(stats.average[part]);
    }
    // Some structure of this subspace is worth at least its mean: a lower bound on the optimum,
    // less the bound on its rounding.
    best.lower_bound_by_average = std::max(best.lower_bound_by_average, average - error);
    if (parts.size() < 3) continue;  // scanned with the statistics
    Subspace subspace;               // the smallest parts into the tail while it holds them
    std::size_t first = 0;
    while (first < parts.size() && subspace.tail + parts[first] <= dp_size) subspace.tail += parts[first++];
    subspace.head.assign(parts.begin() + static_cast<std::ptrdiff_t>(first), parts.end());
    std::vector<int> key = subspace.head;
    key.push_back(-subspace.tail);
    if (open.count(key)) continue;
    subspace.upper = (subspace.tail > 0 ? f_max[subspace.tail] : 0.0) + stats.bound(subspace.head, 0);
    subspace.magnitude = tail_magnitude(stats, subspace.tail);
    for (const int part : subspace.head) subspace.magnitude += stats.magnitude[part];
    open.emplace(key, std::move(subspace));
  }
  std::vector<const Subspace*> order;
  for (const auto& entry : open) order.push_back(&entry.second);
  std::sort(order.begin(), order.end(), [](const Subspace* a, const Subspace* b) { return a->upper > b->upper; });
  for (const Subspace* subspace : order) {
    // Pruned when its bound cannot beat the incumbent or a structure of average value (AVG_I is
    // reached by some structure of subspace I, whose computed value may round below it).
    const double parts = static_cast<double>(subspace->head.size() + subspace->tail);
    const double slack = 4.0 * parts * DBL_EPSILON *
                         (subspace->magnitude + std::fabs(best.value) + std::fabs(best.lower_bound_by_average));
    if (subspace->upper + slack <= best.value) break;  // so are all after it: bounds descend
    if (subspace->upper + slack < best.lower_bound_by_average) continue;
    ++best.searched;
    SubspaceSearch(game, stats, *subspace, f, f_max, best).run(all);
  }
  return best;
}

}  // namespace kollective::coalition
