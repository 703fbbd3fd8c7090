#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <numeric>
#include <utility>

#include "kollective/core/Error.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::coalition {

SizeStatistics::SizeStatistics(int n)
    : agents(n), largest(n + 1), sum(n + 1, 0.0), absolute_sum(n + 1, 0.0), count(n + 1, 0.0), best_pair(-INFINITY) {}

void SizeStatistics::scan(const Values& values, std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t all = (std::uint64_t{1} << agents) - 1;
  for (std::uint64_t c = std::max<std::uint64_t>(begin, 1); c < end; ++c) {
    const int s = __builtin_popcountll(c);
    const double value = values.v[c];
    std::vector<double>& top = largest[s];
    const std::size_t most = static_cast<std::size_t>(agents / s);
    if (top.size() < most || value > top.back()) {
      if (top.size() == most) top.pop_back();
      top.insert(std::upper_bound(top.begin(), top.end(), value, std::greater<double>()), value);
    }
    sum[s] += value;
    absolute_sum[s] += std::fabs(value);
    count[s] += 1;
    magnitude = std::max(magnitude, std::fabs(value));
    const double pair = c == all ? value : value + values.v[all ^ c];
    if (c <= (all ^ c) || c == all) {  // each two-part structure once, and the grand coalition
      if (pair > best_pair) {
        best_pair = pair;
        best_pair_half = c == all ? 0 : c;
      }
    }
  }
}

void SizeStatistics::merge(const SizeStatistics& other) {
  for (int s = 1; s <= agents; ++s) {
    std::vector<double> both(largest[s]);
    both.insert(both.end(), other.largest[s].begin(), other.largest[s].end());
    std::sort(both.begin(), both.end(), std::greater<double>());
    both.resize(std::min(both.size(), static_cast<std::size_t>(agents / s)));
    largest[s] = both;
    sum[s] += other.sum[s];
    absolute_sum[s] += other.absolute_sum[s];
    count[s] += other.count[s];
  }
  magnitude = std::max(magnitude, other.magnitude);
  if (other.best_pair > best_pair) {
    best_pair = other.best_pair;
    best_pair_half = other.best_pair_half;
  }
}

double SizeStatistics::bound(const std::vector<int>& parts, std::size_t from) const {
  double total = 0;
  for (std::size_t k = from, run = 0; k < parts.size(); ++k) {
    run = k > from && parts[k - 1] == parts[k] ? run + 1 : 0;
    total += largest[parts[k]][run];
  }
  return total;
}

SizeStatistics scan_all(const Values& values) {
  SizeStatistics stats(values.agents);
  stats.scan(values, 1, std::uint64_t{1} << values.agents);
  return stats;
}

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

IpPlan plan_subspaces(const Values& values, const SizeStatistics& stats) {
  const int n = values.agents;
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  IpPlan plan;
  plan.slack = 4.0 * n * DBL_EPSILON * (n * stats.magnitude);
  plan.incumbent = stats.best_pair;
  plan.incumbent_structure =
      stats.best_pair_half == 0 ? Structure{all} : Structure{stats.best_pair_half, all ^ stats.best_pair_half};
  std::sort(plan.incumbent_structure.begin(), plan.incumbent_structure.end());
  // The means, and bounds on their rounding: a sum of N terms in order errs by at most
  // (N - 1) eps/2 times the sum of their |v|, so a mean by less than eps/2 times that sum (and
  // the division by eps/2 of itself): eps times the sum of |v| covers both.
  std::vector<double> mean(n + 1, 0.0), mean_error(n + 1, 0.0);
  for (int s = 1; s <= n; ++s) {
    mean[s] = stats.sum[s] / stats.count[s];
    mean_error[s] = DBL_EPSILON * (stats.absolute_sum[s] + std::fabs(mean[s]));
  }
  const std::vector<std::vector<int>> partitions = integer_partitions(n);
  plan.subspaces = static_cast<std::int64_t>(partitions.size());
  plan.lower_bound_by_average = -INFINITY;
  for (const std::vector<int>& parts : partitions) {
    double average = 0, error = 0;
    for (const int part : parts) {
      average += mean[part];
      error += mean_error[part] + static_cast<double>(parts.size()) * DBL_EPSILON * std::fabs(mean[part]);
    }
    plan.lower_bound_by_average = std::max(plan.lower_bound_by_average, average - error);
  }
  for (const std::vector<int>& parts : partitions) {
    if (parts.size() < 3) continue;  // scanned with the statistics
    const double upper = stats.bound(parts);
    if (!may_beat(upper, plan.incumbent, plan.slack)) continue;
    if (upper + plan.slack < plan.lower_bound_by_average) continue;  // cannot reach the average
    plan.open.push_back({parts, upper});
  }
  std::stable_sort(plan.open.begin(), plan.open.end(),
                   [](const Subspace& a, const Subspace& b) { return a.upper > b.upper; });
  return plan;
}

std::vector<SearchedSubspace> searched_subspaces(const IpPlan& plan, const SizeStatistics& stats, int closed_size,
                                                 const std::vector<double>& best_closed) {
  std::map<std::pair<std::vector<int>, int>, std::size_t> index;  // (placed, closed) -> its search
  std::vector<SearchedSubspace> searches;
  for (const Subspace& subspace : plan.open) {
    const std::vector<int> largest_first(subspace.parts.rbegin(), subspace.parts.rend());
    int left = static_cast<int>(std::accumulate(largest_first.begin(), largest_first.end(), 0));
    std::size_t placed = 0;
    while (placed < largest_first.size() && (placed == 0 || left > closed_size)) left -= largest_first[placed++];
    const std::size_t parts = placed + (left > 0 ? 1 : 0);
    const auto [at, added] =
        index.try_emplace({{largest_first.begin(), largest_first.begin() + placed}, left}, searches.size());
    if (added) {
      searches.push_back({at->first.first, left, std::vector<double>(parts + 1, -INFINITY)});
      searches.back().remaining[parts] = 0;
    }
    std::vector<double>& remaining = searches[at->second].remaining;
    for (std::size_t d = 0; d < parts; ++d) remaining[d] = std::max(remaining[d], stats.bound(largest_first, d));
  }
  for (SearchedSubspace& search : searches) {
    if (search.closed == 0) continue;
    const std::size_t placed = search.placed.size();
    search.remaining[placed] = std::min(search.remaining[placed], best_closed.at(search.closed));
    for (std::size_t d = 0; d < placed; ++d)
      search.remaining[d] = std::min(search.remaining[d], stats.bound(search.placed, d) + search.remaining[placed]);
  }
  std::stable_sort(searches.begin(), searches.end(), [](const SearchedSubspace& a, const SearchedSubspace& b) {
    return a.remaining[0] > b.remaining[0];
  });
  return searches;
}

}  // namespace kollective::coalition

namespace kollective::coalition {

Structure best_partition(const Values& values, std::uint64_t set) {
  const int members = __builtin_popcountll(set);
  if (members > 24) fail("best_partition: ", members, " agents; the subset DP is for small coalitions");
  std::vector<double> compact(std::uint64_t{1} << members);
  for (std::uint64_t i = 0; i < compact.size(); ++i) compact[i] = values.v[subsets::submask(i, set)];
  return best_partition(compact, set);
}

Structure best_partition(const std::vector<double>& compact, std::uint64_t set) {
  const int members = __builtin_popcountll(set);
  if (members > 24) fail("best_partition: ", members, " agents; the subset DP is for small coalitions");
  // f[i]: the best partition of the i-th submask of `set` (i ranges over the compact subsets).
  const std::uint64_t subsets_count = std::uint64_t{1} << members;
  if (compact.size() != subsets_count)
    fail("internal: best_partition of ", members, " agents from ", compact.size(), " values");
  std::vector<double> f(subsets_count, 0);
  std::vector<std::uint64_t> part(subsets_count, 0);  // a part of f[i]'s first split (0: i is whole)
  for (std::uint64_t i = 1; i < subsets_count; ++i) {
    f[i] = compact[i];
    const std::uint64_t lowest = i & (~i + 1), others = i ^ lowest;
    for (std::uint64_t sub = (others - 1) & others; sub != others; sub = (sub - 1) & others) {
      const double split = f[lowest | sub] + f[i ^ (lowest | sub)];
      if (split > f[i]) {
        f[i] = split;
        part[i] = lowest | sub;
      }
      if (sub == 0) break;
    }
  }
  Structure structure;
  std::vector<std::uint64_t> pending = {subsets_count - 1};
  while (!pending.empty()) {
    const std::uint64_t i = pending.back();
    pending.pop_back();
    if (part[i] == 0) {
      structure.push_back(subsets::submask(i, set));
    } else {
      pending.push_back(part[i]);
      pending.push_back(i ^ part[i]);
    }
  }
  return structure;
}

}  // namespace kollective::coalition
