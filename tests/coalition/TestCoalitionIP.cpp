#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIP.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace coalition = kollective::coalition;

namespace {

/// The IP result is a partition of every agent whose values add up to its optimum, and the
/// optimum equals `expected` within the double tolerance.
void expect_optimal(const coalition::Game& game, const coalition::IpResult& ip, double expected,
                    const std::string& what) {
  std::uint64_t covered = 0;
  double sum = 0;
  for (const std::uint64_t c : ip.structure) {
    EXPECT_EQ(covered & c, 0u) << what << ": coalitions overlap";
    covered |= c;
    sum += game.values[c];
  }
  EXPECT_EQ(covered, (std::uint64_t{1} << game.agents) - 1) << what << ": not every agent placed";
  const double tolerance = coalition::value_tolerance(false) * std::max(1.0, std::fabs(expected));
  EXPECT_NEAR(sum, ip.value, tolerance) << what;
  EXPECT_NEAR(ip.value, expected, tolerance) << what;
}

}  // namespace

TEST(coalition_ip, integer_partitions_are_the_subspaces) {
  // p(n): 1, 2, 3, 5, 7, 11, 15, 22, 30, 42 for n = 1..10; p(20) = 627.
  const int counts[] = {1, 2, 3, 5, 7, 11, 15, 22, 30, 42};
  for (int n = 1; n <= 10; ++n) {
    const auto ip = coalition::ip_reference(coalition::uniform_game(n, 1));
    EXPECT_EQ(ip.subspaces, counts[n - 1]) << n;
  }
  EXPECT_EQ(coalition::ip_reference(coalition::generate_game("beta", 20, 1)).subspaces, 627);
}

TEST(coalition_ip, matches_brute_force_on_every_distribution) {
  for (const std::string& model : coalition::value_models()) {
    for (int n = 1; n <= 11; n += (n < 4 ? 1 : 3)) {
      for (const std::uint64_t seed : {1, 2}) {
        const auto game = coalition::generate_game(model, n, seed);
        const std::string what = model + " n=" + std::to_string(n) + " seed=" + std::to_string(seed);
        const double optimum = coalition::brute_force(game).value;
        for (const int dp_size : {0, n / 2, n}) {  // IP alone, the hybrid, the DP alone
          expect_optimal(game, coalition::ip_reference(game, dp_size), optimum,
                         what + " dp_size=" + std::to_string(dp_size));
        }
      }
    }
  }
}

TEST(coalition_ip, matches_the_dp_on_larger_games_and_prunes) {
  // n = 13 on every distribution, IP alone (but on the agent-based ones) and the hybrid; n = 16 by
  // the hybrid (IP alone takes minutes on the agent-based ones: its worst case, which the DP's
  // tail is for).
  for (const std::string& model : coalition::value_models()) {
    const auto game = coalition::generate_game(model, 13, 7);
    const double optimum = coalition::serial_dp(game);
    if (model.rfind("agent_", 0) != 0) {  // IP alone searches 93 of 101 subspaces there (seconds)
      expect_optimal(game, coalition::ip_reference(game), optimum, model + " n=13");
    }
    expect_optimal(game, coalition::ip_reference(game, 7), optimum, model + " n=13 dp_size=7");
    const auto larger = coalition::generate_game(model, 16, 7);
    expect_optimal(larger, coalition::ip_reference(larger, 10), coalition::serial_dp(larger),
                   model + " n=16 dp_size=10");
  }
  for (const std::string model : {"uniform", "beta", "idpg"}) {
    const auto game = coalition::generate_game(model, 16, 7);
    const auto ip = coalition::ip_reference(game);
    expect_optimal(game, ip, coalition::serial_dp(game), model + " n=16");
    EXPECT_LT(ip.searched, ip.subspaces / 4) << model << ": most of the 231 subspaces pruned";
  }
}

TEST(coalition_ip, ties_and_negative_values) {
  // Every coalition worth the same: many optimal structures, one returned; and values all negative.
  coalition::Game flat;
  flat.agents = 9;
  flat.values.assign(std::size_t{1} << 9, 1.0);
  flat.values[0] = 0;
  expect_optimal(flat, coalition::ip_reference(flat), coalition::brute_force(flat).value, "flat");
  coalition::Game negative = coalition::uniform_game(9, 3);
  for (std::size_t c = 1; c < negative.values.size(); ++c) negative.values[c] = -negative.values[c];
  expect_optimal(negative, coalition::ip_reference(negative), coalition::brute_force(negative).value, "negative");
}

TEST(coalition_ip, best_partition_of_a_coalition_is_the_dps) {
  // The partition IP writes out for the agents left of a closed branch: a partition of exactly
  // those agents worth the serial DP's best value of them.
  for (const auto& model : {"normal", "modified_uniform", "ndcs"}) {
    const auto game = coalition::generate_game(model, 12, 9);
    const std::vector<double> f = coalition::serial_dp_table(game, 12);
    for (const std::uint64_t set :
         {std::uint64_t{0b1}, std::uint64_t{0b101101}, std::uint64_t{0b110011110110}, std::uint64_t{0xfff}}) {
      const coalition::Structure parts = coalition::best_partition(game, set);
      std::uint64_t covered = 0;
      double sum = 0;
      for (const std::uint64_t part : parts) {
        EXPECT_EQ(covered & part, 0u) << model;
        covered |= part;
        sum += game.values[part];
      }
      EXPECT_EQ(covered, set) << model;
      EXPECT_NEAR(sum, f[set], 1e-12 * std::max(1.0, std::fabs(f[set]))) << model << ", set " << set;
    }
  }
}

TEST(coalition_ip, searches_cover_every_open_subspace_once_with_its_bound) {
  // Each open subspace, placed largest first until at most closed_size agents are left, belongs to
  // exactly one search with the same placed sizes, and that search's bounds are at least the
  // subspace's at every depth (else pruning could lose its structures); the closed agents' bound
  // is at most the largest best partition of that many agents.
  const auto game = coalition::generate_game("modified_normal", 20, 3);
  const coalition::Values values(game);
  const auto stats = coalition::scan_all(values);
  const auto plan = coalition::plan_subspaces(values, stats);
  const int closed_size = 6;
  std::vector<double> best_closed(closed_size + 1, 0.0);
  for (std::uint64_t c = 1; c < values.size(); ++c) {
    const int members = __builtin_popcountll(c);
    if (members > closed_size) continue;
    best_closed[members] =
        std::max(best_closed[members], coalition::structure_value(game, coalition::best_partition(values, c)));
  }
  const auto searches = coalition::searched_subspaces(plan, stats, closed_size, best_closed);
  ASSERT_FALSE(plan.open.empty());
  EXPECT_LT(searches.size(), plan.open.size() / 2) << "subspaces alike up to their closing are searched once";
  for (std::size_t k = 1; k < searches.size(); ++k) EXPECT_GE(searches[k - 1].remaining[0], searches[k].remaining[0]);
  for (const auto& subspace : plan.open) {
    const std::vector<int> largest_first(subspace.parts.rbegin(), subspace.parts.rend());
    int covering = 0;
    for (const auto& search : searches) {
      const std::size_t placed = search.placed.size();
      if (placed > largest_first.size() ||
          !std::equal(search.placed.begin(), search.placed.end(), largest_first.begin()))
        continue;
      int left = game.agents;
      for (const int part : search.placed) left -= part;
      ASSERT_EQ(left, search.closed);
      ++covering;
      EXPECT_TRUE(left <= closed_size || left == 0);
      if (placed > 1) EXPECT_GT(left + search.placed.back(), closed_size) << "placed past the closing";
      for (std::size_t d = 0; d < placed; ++d) {
        const double tail = search.closed > 0 ? std::min(stats.bound(largest_first, placed), best_closed[left]) : 0.0;
        EXPECT_GE(search.remaining[d], std::min(stats.bound(largest_first, d), stats.bound(search.placed, d) + tail));
      }
      if (search.closed > 0) {
        EXPECT_LE(search.remaining[placed], best_closed[left]);
        EXPECT_GE(search.remaining[placed], std::min(stats.bound(largest_first, placed), best_closed[left]));
      }
      EXPECT_EQ(search.remaining.back(), 0.0);
    }
    EXPECT_EQ(covering, 1);
  }
}
