#ifndef KOLLECTIVE_TESTS_HELPERS_HPP
#define KOLLECTIVE_TESTS_HELPERS_HPP

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/core/preferences/Profile.hpp"

namespace kollective::test {

/// Random weak orders with unranked alternatives: every ballot ranks a random prefix of a random
/// permutation, cut into random tie groups, with a random count in 1..max_count.
inline preferences::Profile random_weak_profile(int n, int ballots, std::uint64_t seed, int max_count = 5) {
  HostRng rng(seed);
  preferences::Profile profile;
  profile.alternatives = n;
  profile.names = preferences::numbered_names(n);
  for (int b = 0; b < ballots; ++b) {
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(order[i], order[uniform_below(rng, i + 1)]);
    const int ranked = 1 + static_cast<int>(uniform_below(rng, n));
    preferences::Ballot ballot;
    ballot.count = 1 + static_cast<std::int64_t>(uniform_below(rng, max_count));
    for (int i = 0; i < ranked; ++i) {
      if (i == 0 || uniform_below(rng, 3) != 0) ballot.groups.emplace_back();
      ballot.groups.back().push_back(order[i]);
    }
    profile.ballots.push_back(std::move(ballot));
  }
  return profile;
}

/// One query of documents with these labels and one feature each (hand-sized RankSVM examples).
inline ranksvm::RankData one_query(const std::vector<double>& labels, const std::vector<double>& feature) {
  ranksvm::RankData data;
  data.docs = static_cast<std::int64_t>(labels.size());
  data.features = 1;
  data.labels = labels;
  data.x = feature;
  data.query_begin = {0, data.docs};
  data.query_ids = {1};
  return data;
}

/// A file of `text` named `name` in the test's temporary folder; returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// The message of the kollective::Error that f throws ("" when none).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

/// The most arcs of `arcs` that one ordering keeps (a before b), by a DP over subsets of their
/// alternatives: the ordering's last alternative keeps the arcs into it from those before.
inline int most_arcs_kept(const std::vector<std::pair<int, int>>& arcs) {
  std::vector<int> alternatives;
  for (const auto& [a, b] : arcs) alternatives.push_back(a), alternatives.push_back(b);
  std::sort(alternatives.begin(), alternatives.end());
  alternatives.erase(std::unique(alternatives.begin(), alternatives.end()), alternatives.end());
  const int m = static_cast<int>(alternatives.size());
  auto index = [&](int a) {
    return static_cast<int>(std::lower_bound(alternatives.begin(), alternatives.end(), a) - alternatives.begin());
  };
  std::vector<int> into(m, 0);  // per alternative, the mask of arcs' tails into it
  for (const auto& [a, b] : arcs) into[index(b)] |= 1 << index(a);
  std::vector<int> best(std::size_t{1} << m, 0);
  for (int set = 1; set < (1 << m); ++set) {
    for (int last = 0; last < m; ++last) {
      if (!(set >> last & 1)) continue;
      const int before = set & ~(1 << last);
      best[set] = std::max(best[set], best[before] + __builtin_popcount(into[last] & before));
    }
  }
  return best.back();
}

/// A weighted tournament: m voters per pair, split at random (any such matrix is a valid input;
/// small m gives the LP fractional optima, so the search must branch).
inline preferences::PairwiseCounts random_tournament(int n, int m, std::uint64_t seed) {
  preferences::PairwiseCounts o;
  o.alternatives = n;
  o.names = preferences::numbered_names(n);
  o.doubled.assign(static_cast<std::size_t>(n) * n, 0);
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const auto with_i = static_cast<std::uint32_t>((state >> 33) % static_cast<std::uint64_t>(m + 1));
      o.doubled[static_cast<std::size_t>(i) * n + j] = 2 * with_i;
      o.doubled[static_cast<std::size_t>(j) * n + i] = 2 * (m - with_i);
    }
  }
  return o;
}

}  // namespace kollective::test

#endif
