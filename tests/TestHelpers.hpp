#ifndef KOLLECTIVE_TESTS_HELPERS_HPP
#define KOLLECTIVE_TESTS_HELPERS_HPP

#include <functional>
#include <numeric>
#include <string>

#include "algorithms/ranksvm/RankSvmGenerators.hpp"
#include "algorithms/ranksvm/RankSvmIO.hpp"
#include "algorithms/ranksvm/RankSvmMetrics.hpp"
#include "algorithms/ranksvm/RankSvmTypes.hpp"
#include "core/Error.hpp"
#include "core/Random.hpp"
#include "core/preferences/Profile.hpp"

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

/// The message of the kollective::Error that f throws ("" when none).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace kollective::test

#endif
