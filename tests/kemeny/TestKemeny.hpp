// Kemeny: subset DP and the decomposition strategy against brute force (included once per backend).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/KemenyIO.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/tests/TestHelpers.hpp"
#include "kollective/tests/kemeny/KemenySearchCases.hpp"

namespace kollective::test {

inline preferences::Profile strict_profile(int n,
                                           const std::vector<std::pair<std::int64_t, std::vector<int>>>& orders) {
  preferences::Profile profile;
  profile.alternatives = n;
  profile.names = preferences::numbered_names(n);
  for (const auto& [count, order] : orders) {
    preferences::Ballot ballot;
    ballot.count = count;
    for (int a : order) ballot.groups.push_back({a});
    profile.ballots.push_back(ballot);
  }
  return profile;
}

/// Rico et al. (2023), Tables 1-2: A=0, B=1, C=2, D=3; unique optimum B > D > A > C at 21.
inline kemeny::Counts seed_example() {
  auto counts = preferences::pairwise_reference(
      strict_profile(4, {{3, {0, 1, 2, 3}}, {2, {3, 1, 0, 2}}, {2, {3, 0, 1, 2}}, {3, {1, 2, 3, 0}}}));
  counts.names = {"A", "B", "C", "D"};
  return counts;
}

/// Kendall tau distance between a ranking and a strict ballot (pairs in opposite order).
inline std::uint64_t kendall_tau(const kemeny::Ranking& ranking, const std::vector<int>& ballot) {
  std::vector<int> position(ranking.size());
  for (size_t p = 0; p < ranking.size(); ++p) position[ranking[p]] = static_cast<int>(p);
  std::uint64_t disagreements = 0;
  for (size_t i = 0; i < ballot.size(); ++i) {
    for (size_t j = i + 1; j < ballot.size(); ++j) disagreements += position[ballot[i]] > position[ballot[j]] ? 1 : 0;
  }
  return disagreements;
}

template <class ExecSpace>
void check_seed_example() {
  const auto o = seed_example();
  const kemeny::Ranking expected = {1, 3, 0, 2};
  EXPECT_EQ(kemeny::distance(o, expected), 42u);  // doubled: 21 disagreements
  // The full distance table (all 24 rankings) from the definition: the weighted sum of Kendall
  // tau distances to the ballots, computed here ballot by ballot, equals the matrix form.
  const std::vector<std::pair<std::uint64_t, std::vector<int>>> ballots = {
      {3, {0, 1, 2, 3}}, {2, {3, 1, 0, 2}}, {2, {3, 0, 1, 2}}, {3, {1, 2, 3, 0}}};
  kemeny::Ranking ranking = {0, 1, 2, 3};
  int rankings = 0;
  do {
    std::uint64_t by_definition = 0;
    for (const auto& [count, ballot] : ballots) by_definition += count * kendall_tau(ranking, ballot);
    EXPECT_EQ(kemeny::distance(o, ranking), 2 * by_definition);
    EXPECT_GE(by_definition, 21u);
    EXPECT_TRUE(by_definition > 21 || ranking == expected);
    ++rankings;
  } while (std::next_permutation(ranking.begin(), ranking.end()));
  EXPECT_EQ(rankings, 24);
  const auto brute = kemeny::brute_force(o);
  EXPECT_EQ(brute.distance, 42u);
  EXPECT_EQ(brute.optima, (std::vector<kemeny::Ranking>{expected}));
  ExecSpace space;
  for (auto method : {kemeny::Method::enumeration, kemeny::Method::dp, kemeny::Method::automatic}) {
    kemeny::Options options;
    options.method = method;
    const auto result = kemeny::solve(space, o, options);
    EXPECT_TRUE(result.exact);
    EXPECT_EQ(result.distance, 42u);
    EXPECT_EQ(result.count, 1u);
    EXPECT_EQ(result.optima, (std::vector<kemeny::Ranking>{expected})) << kemeny::to_string(method);
  }
}

template <class ExecSpace>
void check_against_brute_force(int n, std::uint64_t seed) {
  // Few ballots and small counts make ties and several optima common.
  const auto o = preferences::pairwise_reference(random_weak_profile(n, 1 + static_cast<int>(seed % 6), seed, 3));
  const auto brute = kemeny::brute_force(o);
  ExecSpace space;
  kemeny::Options options;
  options.list_limit = 100000;
  const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
  for (auto method : {kemeny::Method::enumeration, kemeny::Method::dp, kemeny::Method::automatic}) {
    options.method = method;
    const auto result = kemeny::solve(space, o, options);
    EXPECT_TRUE(result.exact) << what;
    EXPECT_EQ(result.distance, brute.distance) << what;
    EXPECT_EQ(result.count, brute.optima.size()) << what << " " << kemeny::to_string(method);
    auto listed = result.optima;
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, brute.optima) << what << " " << kemeny::to_string(method);
  }
  // Bounds: no heuristic beats the optimum, the lower bound never exceeds it.
  EXPECT_LE(kemeny::lower_bound(o), brute.distance) << what;
  for (const auto& ranking :
       {kemeny::borda(o), kemeny::copeland(o), kemeny::kwiksort(o, seed), kemeny::best_heuristic(o, seed)}) {
    EXPECT_GE(kemeny::distance(o, ranking), brute.distance) << what;
  }
  options.method = kemeny::Method::heuristic;
  const auto heuristic = kemeny::solve(space, o, options);
  EXPECT_GE(heuristic.distance, brute.distance);
  EXPECT_LE(heuristic.lower_bound, brute.distance);
}

template <class ExecSpace>
void check_decomposition() {
  // Alternatives 0-2 form a cycle that beats every one of 3-6, which form a second cycle plus 6
  // (beaten by all): three components {0,1,2} > {3,4,5} > {6}.
  const auto o = preferences::pairwise_reference(
      strict_profile(7, {{1, {0, 1, 2, 3, 4, 5, 6}}, {1, {1, 2, 0, 4, 5, 3, 6}}, {1, {2, 0, 1, 5, 3, 4, 6}}}));
  const auto components = kemeny::condorcet_components(o);
  EXPECT_EQ(components, (std::vector<std::vector<int>>{{0, 1, 2}, {3, 4, 5}, {6}}));
  ExecSpace space;
  kemeny::Options options;
  options.list_limit = 1000;
  const auto result = kemeny::solve(space, o, options);
  const auto brute = kemeny::brute_force(o);
  EXPECT_EQ(result.component_sizes, (std::vector<int>{3, 3, 1}));
  EXPECT_EQ(result.distance, brute.distance);
  EXPECT_EQ(result.count, brute.optima.size());  // 3 x 3 x 1 = 9
  EXPECT_EQ(result.count, 9u);
  auto listed = result.optima;
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, brute.optima);
}

TEST(TEST_CATEGORY, kemeny_seed_example) { check_seed_example<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, kemeny_dp_and_auto_match_brute_force) {
  for (int n = 1; n <= 9; ++n) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) check_against_brute_force<TEST_EXECSPACE>(n, seed);
  }
}

TEST(TEST_CATEGORY, kemeny_decomposition) { check_decomposition<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, kemeny_verify_keeps_auto_settings_to_auto) {
  // verify's second solve (the enumeration, 10-12 alternatives) refused auto's branch-and-cut
  // settings that the first one took.
  TEST_EXECSPACE space;
  const auto o = preferences::pairwise_reference(random_weak_profile(10, 40, 5));
  kemeny::Options options;
  options.ladders = true;
  options.reduce = false;
  options.root_triangles = 2;
  const kemeny::Result result = kemeny::solve(space, o, options);
  EXPECT_EQ(kemeny::verify(space, o, options, result), "enumeration");
}

TEST(TEST_CATEGORY, kemeny_dp_lists_the_first_optima_of_its_walk) {
  // The DP lists optima as a walk from the bottom of the ranking up, candidates ascending: in
  // ascending order of the reversed rankings. A limit keeps the first ones of that order.
  TEST_EXECSPACE space;
  int checked = 0;
  for (int n = 4; n <= 9; ++n) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const auto o = preferences::pairwise_reference(random_weak_profile(n, 1 + static_cast<int>(seed % 3), seed, 3));
      kemeny::Options options;
      options.method = kemeny::Method::dp;
      options.list_limit = 100000;
      const kemeny::Result whole = kemeny::solve(space, o, options);
      const auto& all = whole.optima;
      EXPECT_EQ(all.size(), whole.count) << n << " " << seed;  // every optimum listed
      std::vector<kemeny::Ranking> reversed;
      for (const auto& ranking : all) reversed.emplace_back(ranking.rbegin(), ranking.rend());
      EXPECT_TRUE(std::is_sorted(reversed.begin(), reversed.end())) << n << " " << seed;
      if (all.size() < 3) continue;
      ++checked;
      for (const std::size_t limit : {std::size_t{1}, std::size_t{2}, all.size() / 2, all.size() - 1}) {
        options.list_limit = static_cast<int>(limit);
        EXPECT_EQ(kemeny::solve(space, o, options).optima,
                  std::vector<kemeny::Ranking>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(limit)))
            << n << " " << seed << " limit " << limit;
      }
    }
  }
  EXPECT_GE(checked, 10);  // enough profiles with several optima
}

TEST(TEST_CATEGORY, kemeny_workspace_reused_across_solves_gives_fresh_results) {
  // One workspace through solves of 11, 11 again (its buffers reused), 9 (reshaped) and 11
  // alternatives: each result equals a solve with buffers of its own.
  TEST_EXECSPACE space;
  kollective::Workspace<TEST_EXECSPACE::memory_space> workspace;
  kemeny::Options options;
  options.method = kemeny::Method::dp;
  options.list_limit = 1000;
  std::size_t held_at_11 = 0;
  for (const auto& [n, seed] : std::vector<std::pair<int, std::uint64_t>>{{11, 1}, {11, 2}, {9, 3}, {11, 4}}) {
    const auto o = preferences::pairwise_reference(random_weak_profile(n, 3, seed, 3));
    const kemeny::Result reused = kemeny::solve(space, o, options, workspace);
    const kemeny::Result fresh = kemeny::solve(space, o, options);
    EXPECT_EQ(reused.distance, fresh.distance) << n << " " << seed;
    EXPECT_EQ(reused.count, fresh.count) << n << " " << seed;
    EXPECT_EQ(reused.optima, fresh.optima) << n << " " << seed;
    if (seed == 1) held_at_11 = workspace.bytes();
    EXPECT_EQ(workspace.bytes() == held_at_11, n == 11) << n << " " << seed;  // kept, or reshaped
  }
  EXPECT_GE(held_at_11, (std::size_t{1} << 11) * 12);  // best and ways of every set
  workspace.release();
  EXPECT_EQ(workspace.bytes(), 0u);
}

TEST(TEST_CATEGORY, kemeny_enumeration_matches_dp_beyond_brute_force) {
  TEST_EXECSPACE space;
  for (int n : {9, 10, 11}) {
    const auto o = preferences::pairwise_reference(random_weak_profile(n, 4, 100 + n, 3));
    kemeny::Options options;
    options.list_limit = 50;
    options.method = kemeny::Method::enumeration;
    const auto enumerated = kemeny::solve(space, o, options);
    options.method = kemeny::Method::dp;
    const auto dp = kemeny::solve(space, o, options);
    EXPECT_EQ(enumerated.distance, dp.distance) << n;
    EXPECT_EQ(enumerated.count, dp.count) << n;
    if (dp.count <= 50) {
      auto listed = dp.optima;
      std::sort(listed.begin(), listed.end());
      EXPECT_EQ(enumerated.optima, listed) << n;
    }
  }
}

// The iterated local search's chains on the space (the anytime answer on a GPU), on tournaments of
// 18 against the subset DP's optimum: a ranking, never worse than its start, the optimum on most,
// and the same rankings as the host's chains (one vector lane: on CUDA, 32 lanes against 1) under
// a round limit, chain by chain.
TEST(TEST_CATEGORY, kemeny_search_chains_reach_the_optimum_alike_on_every_vector_length) {
  int optimal = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto [o, optimum, start] = search_case(seed);
    kemeny::SearchLimits limits;
    limits.rounds = 200;
    kemeny::Impl::ChainSettings settings;
    settings.chains = 6;
    settings.rounds_per_launch = 50;
    const kemeny::Ranking found =
        kemeny::Impl::iterated_local_search(TEST_EXECSPACE(), o, start, limits, seed, settings);
    ASSERT_TRUE(is_ranking(found, o.alternatives)) << "seed " << seed;
    EXPECT_LE(kemeny::distance(o, found), kemeny::distance(o, start)) << "seed " << seed;
    EXPECT_GE(kemeny::distance(o, found), optimum) << "seed " << seed;
    optimal += kemeny::distance(o, found) == optimum ? 1 : 0;
    EXPECT_EQ(
        kemeny::Impl::iterated_local_search(Kokkos::DefaultHostExecutionSpace(), o, start, limits, seed, settings),
        found)
        << "seed " << seed;
  }
  EXPECT_GE(optimal, 3);
}

// The memetic search's children descended on the space (DeviceDescents: one team each, their
// distances found there) are the host's children: under a generation limit the same ranking as
// the host's memetic search, also with more children a generation than fit one batch.
TEST(TEST_CATEGORY, kemeny_memetic_children_on_the_space_are_the_hosts) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const SearchCase tested = search_case(seed);  // not a structured binding: the lambdas capture it
    const kemeny::Counts& o = tested.o;
    const kemeny::Ranking& start = tested.start;
    kemeny::SearchLimits limits;
    limits.rounds = 6;
    const kemeny::Margins margins(o);
    const auto on_host = [&](std::vector<kemeny::Ranking>& rankings, std::vector<std::uint64_t>& distances) {
      kemeny::descend_on_host(margins, o, rankings, distances);
    };
    const kemeny::Ranking by_host = kemeny::memetic_search(o, start, limits, seed, 8, 12, on_host);
    // The space's own team size, then teams of two threads (one on Serial) scanning together.
    for (const int threads : {0, 2}) {
      kemeny::Impl::DeviceDescents<TEST_EXECSPACE> descents(TEST_EXECSPACE(), o, 5, threads);
      const auto on_space = [&](std::vector<kemeny::Ranking>& rankings, std::vector<std::uint64_t>& distances) {
        descents(rankings, distances);
        for (std::size_t i = 0; i < rankings.size(); ++i)
          ASSERT_EQ(distances[i], kemeny::distance(o, rankings[i])) << "seed " << seed << ", ranking " << i;
      };
      const kemeny::Ranking found = kemeny::memetic_search(o, start, limits, seed, 8, 12, on_space);
      ASSERT_TRUE(is_ranking(found, o.alternatives)) << "seed " << seed;
      EXPECT_GE(kemeny::distance(o, found), tested.optimum) << "seed " << seed;
      EXPECT_LE(kemeny::distance(o, found), kemeny::distance(o, start)) << "seed " << seed;
      EXPECT_EQ(by_host, found) << "seed " << seed << ", threads " << threads;
    }
  }
}

// Each local optimum the space's teams descend to is the host's, ranking for ranking: a tournament
// of 3 voters (odd margins, so many moves tie) from shuffled rankings, with the space's own team
// size and with teams of two threads (one on Serial), whose blocks of the ranking meet mid-scan.
TEST(TEST_CATEGORY, kemeny_descents_on_the_space_reach_the_hosts_local_optima) {
  const kemeny::Counts o = random_tournament(41, 3, 5);
  const kemeny::Margins margins(o);
  std::vector<kemeny::Ranking> starts(16, kemeny::borda(o));
  std::mt19937_64 rng(7);
  for (kemeny::Ranking& ranking : starts) std::shuffle(ranking.begin(), ranking.end(), rng);
  std::vector<kemeny::Ranking> by_host = starts;
  std::vector<std::uint64_t> host_distances(starts.size());
  kemeny::descend_on_host(margins, o, by_host, host_distances);
  for (const int threads : {0, 2}) {
    kemeny::Impl::DeviceDescents<TEST_EXECSPACE> descents(TEST_EXECSPACE(), o, static_cast<int>(starts.size()),
                                                          threads);
    std::vector<kemeny::Ranking> found = starts;
    std::vector<std::uint64_t> distances(starts.size());
    descents(found, distances);
    for (std::size_t i = 0; i < starts.size(); ++i) {
      EXPECT_EQ(found[i], by_host[i]) << "ranking " << i << ", threads " << threads;
      EXPECT_EQ(distances[i], host_distances[i]) << "ranking " << i << ", threads " << threads;
      EXPECT_EQ(distances[i], kemeny::distance(o, found[i])) << "ranking " << i << ", threads " << threads;
    }
  }
}

// Above branch and cut's size, auto gives the component the LP bound and the iterated local
// search within time_limit (on a device, the search's chains there and the LP beside them), then
// the greedy dual's bound at the best ranking: a ranking at least as good as the heuristics', a
// lower bound above the pairwise one (with CLP or without), not claimed exact.
TEST(TEST_CATEGORY, kemeny_components_above_branch_and_cut_get_a_bound_and_the_search) {
  const kemeny::Counts o = kollective::test::random_tournament(kemeny::lp_max_alternatives + 1, 3, 7);
  kemeny::Options options;
  options.time_limit = 3;
  options.count = false;
  const kemeny::Result result = kemeny::solve(TEST_EXECSPACE(), o, options);
  EXPECT_FALSE(result.exact);
  EXPECT_EQ(result.component_sizes, (std::vector<int>{kemeny::lp_max_alternatives + 1}));
  EXPECT_EQ(result.distance, kemeny::distance(o, result.optima.front()));
  EXPECT_LE(result.distance, kemeny::distance(o, kemeny::best_heuristic(o, options.seed)));
  EXPECT_LE(result.lower_bound, result.distance);
  EXPECT_GT(result.lower_bound, kemeny::lower_bound(o));
  if (kemeny::lp_available()) EXPECT_GT(result.lp_rounds, 1);
}

// Above split_time_alternatives, with a time limit, branch and cut's proof ends the component:
// on a device the memetic search beside it stops at its next generation instead of running out
// the limit. One cycle through all the alternatives (each beats the next by 10 to 0, the last
// beats the first by 6 to 4): a single component whose optimum, the order 0, 1, ..., n - 1, the
// triangle LP proves at its root.
TEST(TEST_CATEGORY, kemeny_split_components_end_when_branch_and_cut_proves) {
  if (!kemeny::lp_available()) GTEST_SKIP() << "branch and cut needs CLP";
  const int n = kemeny::Impl::split_time_alternatives + 1;
  preferences::PairwiseCounts o = random_tournament(n, 10, 1);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      o.doubled[static_cast<std::size_t>(i) * n + j] = 20;
      o.doubled[static_cast<std::size_t>(j) * n + i] = 0;
    }
  }
  o.doubled[n - 1] = 8;                                 // first over last
  o.doubled[static_cast<std::size_t>(n - 1) * n] = 12;  // last over first
  kemeny::Options options;
  options.time_limit = 600;
  const WallTimer timer;
  const kemeny::Result result = kemeny::solve(TEST_EXECSPACE(), o, options);
  EXPECT_LT(timer.seconds(), 300);
  EXPECT_TRUE(result.exact);
  EXPECT_EQ(result.component_sizes, (std::vector<int>{n}));
  kemeny::Ranking order(n);
  for (int a = 0; a < n; ++a) order[a] = a;
  EXPECT_EQ(result.distance, kemeny::distance(o, order));
  EXPECT_EQ(result.optima, (std::vector<kemeny::Ranking>{order}));
}

TEST(TEST_CATEGORY, kemeny_refuses_what_does_not_fit) {
  TEST_EXECSPACE space;
  const auto seventeen = preferences::pairwise_reference(random_weak_profile(17, 3, 1));
  kemeny::Options enumeration;
  enumeration.method = kemeny::Method::enumeration;
  EXPECT_NE(error_of([&] { kemeny::solve(space, seventeen, enumeration); }).find("limited to 16 alternatives"),
            std::string::npos);
  const auto big = preferences::pairwise_reference(random_weak_profile(41, 3, 1));
  kemeny::Options options;
  options.method = kemeny::Method::dp;
  EXPECT_NE(error_of([&] { kemeny::solve(space, big, options); }).find("41 alternatives exceed its limit of 40"),
            std::string::npos);
  const auto mid = preferences::pairwise_reference(random_weak_profile(30, 3, 1));
  setenv("KOLLECTIVE_MEMORY_LIMIT", "100000000", 1);
  const std::string message = error_of([&] { kemeny::solve(space, mid, options); });
  EXPECT_NE(message.find("the Kemeny subset DP over 30 alternatives needs 12.01 GiB"), std::string::npos) << message;
  // auto solves it by branch and cut on the LP where the build has CLP; else it falls back to
  // the heuristic with a certified gap instead of failing.
  options.method = kemeny::Method::automatic;
  const auto fallback = kemeny::solve(space, mid, options);
  unsetenv("KOLLECTIVE_MEMORY_LIMIT");
  EXPECT_LE(fallback.lower_bound, fallback.distance);
  if (kemeny::lp_available()) {
    EXPECT_TRUE(fallback.exact) << fallback.method;
    for (const auto& ranking : fallback.optima) EXPECT_EQ(kemeny::distance(mid, ranking), fallback.distance);
  } else {
    EXPECT_EQ(fallback.optima.size(), 1u);
  }
}

}  // namespace kollective::test
