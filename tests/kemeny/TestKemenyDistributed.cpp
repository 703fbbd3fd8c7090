#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/tests/DistributedHelpers.hpp"

/// The ranks the shared DP uses: the largest power of two <= P, at most 2^(n-2).
int hypercube_ranks(int n) {
  int ranks = 1;
  while (ranks * 2 <= world().size() && ranks * 8 <= (1 << n)) ranks *= 2;
  return ranks;
}

void expect_same_kemeny(const kemeny::Counts& o, kemeny::Options alone, const std::string& what) {
  alone.list_limit = 1000;
  kemeny::Options shared = alone;
  shared.communicator = world();
  const kemeny::Result a = kemeny::solve(Space(), o, alone);
  const kemeny::Result b = kemeny::solve(Space(), o, shared);
  EXPECT_EQ(b.distance, a.distance) << what;
  EXPECT_EQ(b.count, a.count) << what;
  EXPECT_EQ(b.count_saturated, a.count_saturated) << what;
  EXPECT_EQ(b.optima, a.optima) << what;  // listed in the same order
  EXPECT_EQ(b.method, a.method) << what;
}

TEST(distributed, kemeny_dp_shared_by_every_rank_equals_one_rank) {
  // Few voters: many tied pairs, so many optimal rankings to count and list.
  for (const int n : {1, 2, 3, 5, 8, 10, 13, 16}) {
    for (const std::int64_t voters : {2, 5}) {
      const auto o = preferences::pairwise_reference(preferences::impartial_culture(n, voters, 17 * n + voters));
      const std::string what = "n=" + std::to_string(n) + " voters=" + std::to_string(voters);
      kemeny::Options shared;
      shared.method = kemeny::Method::dp;
      expect_same_kemeny(o, shared, what);
      shared.communicator = world();
      shared.list_limit = n <= kemeny::brute_force_max_alternatives ? 1000000 : 1000;  // all, where checked
      const kemeny::Result result = kemeny::solve(Space(), o, shared);
      EXPECT_EQ(result.ranks, hypercube_ranks(n)) << what;
      if (n <= kemeny::brute_force_max_alternatives) {  // the serial reference
        const kemeny::BruteForceResult brute = kemeny::brute_force(o);
        EXPECT_EQ(result.distance, brute.distance) << what;
        EXPECT_EQ(result.count, brute.optima.size()) << what;
        auto listed = result.optima;
        std::sort(listed.begin(), listed.end());
        EXPECT_EQ(listed, brute.optima) << what;
      }
    }
  }
}

TEST(distributed, kemeny_dp_shared_in_one_workspace_equals_one_rank) {
  // Every rank's workspace through the same shared DPs: kept (13, 13), reshaped (9, 13).
  kollective::Workspace<Space::memory_space> workspace;
  kemeny::Options alone;
  alone.method = kemeny::Method::dp;
  alone.list_limit = 1000;
  kemeny::Options shared = alone;
  shared.communicator = world();
  for (const auto& [n, seed] : std::vector<std::pair<int, std::uint64_t>>{{13, 1}, {13, 2}, {9, 3}, {13, 4}}) {
    const auto o = preferences::pairwise_reference(preferences::impartial_culture(n, 4, seed));
    const kemeny::Result a = kemeny::solve(Space(), o, alone);
    const kemeny::Result b = kemeny::solve(Space(), o, shared, workspace);
    EXPECT_EQ(b.distance, a.distance) << n << " " << seed;
    EXPECT_EQ(b.count, a.count) << n << " " << seed;
    EXPECT_EQ(b.optima, a.optima) << n << " " << seed;
  }
}

TEST(distributed, kemeny_dp_tables_alike_with_overlapped_or_stepwise_trades) {
  // Two buffers per traded layer let each step's trade overlap the next step; one (where two do
  // not fit) trades between the steps, on another schedule. Both fill this rank's share alike.
  const auto o = preferences::pairwise_reference(preferences::impartial_culture(14, 3, 5));
  kemeny::Impl::Layout l = kemeny::Impl::layout(14, world());
  world().prepare_device_collectives();
  if (l.rank < 0) return;  // sits out the shared DP
  std::vector<std::vector<std::uint32_t>> best;
  std::vector<std::vector<std::uint64_t>> ways;
  for (const int buffers : {1, 2}) {
    l.buffers = buffers;
    double exchange_seconds = 0;
    kollective::Workspace<Space::memory_space> workspace;  // holds t's best and ways
    const auto t = kemeny::Impl::run_dp<std::uint32_t>(Space(), o, l, workspace, exchange_seconds);
    const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.best);
    const auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.ways);
    best.emplace_back(b.data(), b.data() + b.extent(0));
    ways.emplace_back(w.data(), w.data() + w.extent(0));
  }
  EXPECT_EQ(best[0], best[1]);
  EXPECT_EQ(ways[0], ways[1]);
}

TEST(distributed, kemeny_auto_shares_each_component_dp) {
  // Noisy Mallows profiles of 24 alternatives: Condorcet components of several sizes, the
  // largest over 8, each given to the shared DP (dp_limit 24). Without the limit, auto gives
  // components over 12 the LP search first for a time, so which method solves them depends on the
  // machine's speed.
  for (const std::uint64_t seed : {1, 2, 3}) {
    const auto o = preferences::pairwise_reference(preferences::mallows(24, 9, 0.9, seed));
    const std::string what = "mallows n=24 seed=" + std::to_string(seed);
    kemeny::Options shared;
    shared.dp_limit = 24;
    expect_same_kemeny(o, shared, what);
    shared.communicator = world();
    const kemeny::Result result = kemeny::solve(Space(), o, shared);
    EXPECT_GT(*std::max_element(result.component_sizes.begin(), result.component_sizes.end()), 8) << what;
    EXPECT_EQ(result.ranks, hypercube_ranks(24)) << what;
  }
}
