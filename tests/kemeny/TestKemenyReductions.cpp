// Kemeny's data reduction (KemenyReductions.hpp): every pair it fixes holds in every optimal
// ranking that brute force finds.
#include <gtest/gtest.h>

#include <string>

#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyReductions.hpp"
#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kemeny = kollective::kemeny;
namespace preferences = kollective::preferences;
using kollective::test::random_tournament;
using kollective::test::random_weak_profile;

namespace {

/// Counts from one row-major matrix of doubled counts.
kemeny::Counts counts(int n, std::vector<std::uint32_t> doubled) {
  kemeny::Counts o;
  o.alternatives = n;
  o.names = preferences::numbered_names(n);
  o.doubled = std::move(doubled);
  return o;
}

/// Fails where a fixed pair is broken by an optimal ranking; returns the pairs fixed.
std::int64_t expect_fixed_pairs_hold(const kemeny::Counts& o, const std::string& what) {
  const kemeny::PairReduction reduction = kemeny::fixed_pairs(o);
  for (const kemeny::Ranking& optimum : kemeny::brute_force(o).optima) {
    std::vector<int> place(o.alternatives);
    for (int p = 0; p < o.alternatives; ++p) place[optimum[p]] = p;
    for (int a = 0; a < o.alternatives; ++a) {
      for (int b = 0; b < o.alternatives; ++b) {
        if (reduction.fixed(a, b)) EXPECT_LT(place[a], place[b]) << what << ": " << a << " before " << b;
      }
    }
  }
  return reduction.pairs();
}

}  // namespace

TEST(kemeny_reductions, fixed_pairs_hold_in_every_optimum) {
  // Weak orders with ties and unranked alternatives, weighted tournaments, and Mallows
  // mixtures: about 500 profiles of 3 to 8 alternatives.
  std::int64_t fixed = 0, by_closure = 0, by_grouping = 0;
  for (int n = 3; n <= 8; ++n) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      const auto weak =
          preferences::pairwise_reference(random_weak_profile(n, 1 + static_cast<int>(seed % 9), seed, 4));
      fixed += expect_fixed_pairs_hold(weak, "weak " + what);
      fixed +=
          expect_fixed_pairs_hold(random_tournament(n, 1 + static_cast<int>(seed % 5), seed), "tournament " + what);
      const auto mixture = preferences::pairwise_reference(preferences::mallows_mixture(n, 15, 0.7, seed));
      fixed += expect_fixed_pairs_hold(mixture, "mixture " + what);
      by_closure += kemeny::fixed_pairs(mixture).by_closure;
      by_grouping += kemeny::fixed_pairs(weak).by_grouping + kemeny::fixed_pairs(mixture).by_grouping;
    }
  }
  EXPECT_GT(fixed, 1000) << "the rule fixed few pairs: the property is barely tested";
  EXPECT_GT(by_grouping, 100) << "the grouping rule fixed few pairs: it is barely tested";
  EXPECT_GT(by_closure, 0) << "transitivity never added a pair: the closure is untested";
}

TEST(kemeny_reductions, three_quarters_majority_pairs_hold_in_every_optimum_of_strict_ballots) {
  // Mallows profiles (strict, complete ballots) of 4 to 8 alternatives: 450 profiles, with voter
  // counts divisible by 4 among them (3/4 exactly reached) and not.
  std::int64_t by_majority = 0;
  for (int n = 4; n <= 8; ++n) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      for (const double phi : {0.5, 0.65, 0.8}) {
        const std::int64_t voters = 4 + static_cast<std::int64_t>(seed % 9);
        const auto o = preferences::pairwise_reference(preferences::mallows(n, voters, phi, seed));
        ASSERT_TRUE(o.strict_complete);
        const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed) +
                                 " phi=" + std::to_string(phi) + " voters=" + std::to_string(voters);
        expect_fixed_pairs_hold(o, what);
        by_majority += kemeny::fixed_pairs(o).by_majority;
      }
    }
  }
  EXPECT_GT(by_majority, 30) << "the 3/4 rule added few pairs: it is barely tested";
}

TEST(kemeny_reductions, three_quarters_rule_by_hand_at_exactly_three_quarters) {
  // 4 voters: c x y, c x y, y c x, x y c (c = 0, x = 1, y = 2). c and y tie, so one component;
  // the exchange rule fixes nothing (margins 4, each met by what the third alternative gains).
  // x's pairs are decided 3 to 1 both: c before x, x before y, and by closure c before y.
  auto o = counts(3, {0, 6, 4, 2, 0, 6, 4, 2, 0});
  o.strict_complete = true;
  const kemeny::PairReduction reduction = kemeny::fixed_pairs(o);
  EXPECT_EQ(reduction.by_exchange, 0);
  EXPECT_EQ(reduction.by_majority, 2);
  EXPECT_EQ(reduction.by_closure, 1);
  EXPECT_TRUE(reduction.fixed(0, 1) && reduction.fixed(1, 2) && reduction.fixed(0, 2));
  EXPECT_EQ(expect_fixed_pairs_hold(o, "by hand"), 3);
  EXPECT_EQ(kemeny::brute_force(o).optima, (std::vector<kemeny::Ranking>{{0, 1, 2}}));
}

TEST(kemeny_reductions, only_strict_complete_ballots_are_flagged) {
  using preferences::Ballot;
  preferences::Profile profile;
  profile.alternatives = 3;
  profile.names = preferences::numbered_names(3);
  profile.ballots = {Ballot{2, {{0}, {1}, {2}}}, Ballot{1, {{2}, {0}, {1}}}};
  const auto strict = preferences::pairwise_reference(profile);
  EXPECT_TRUE(strict.strict_complete);
  EXPECT_TRUE(kemeny::restrict_to(strict, {0, 2}).strict_complete);  // the ballots restricted
  profile.ballots.push_back(Ballot{1, {{0, 1}, {2}}});               // a tie
  EXPECT_FALSE(preferences::pairwise_reference(profile).strict_complete);
  profile.ballots.back() = Ballot{1, {{0}, {1}}};  // 2 unranked
  EXPECT_FALSE(preferences::pairwise_reference(profile).strict_complete);
}

TEST(kemeny_reductions, three_quarters_rule_only_for_strict_complete_ballots) {
  // The same counts, not known to come from strict complete ballots: the 3/4 rule stays out.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto o = preferences::pairwise_reference(preferences::mallows(8, 8, 0.5, seed));
    const std::int64_t with = kemeny::fixed_pairs(o).by_majority;
    o.strict_complete = false;
    EXPECT_EQ(kemeny::fixed_pairs(o).by_majority, 0) << seed;
    if (with > 0) return;  // the rule fired on this profile, and only with the flag
  }
  FAIL() << "no profile where the 3/4 rule fired";
}

TEST(kemeny_reductions, exchange_rule_by_hand) {
  // Doubled counts of 4 voters. A cycle 0 > 1 > 2 > 0 by 3 to 1: each rotation is optimal, so
  // nothing can be fixed (for 0 before 1: m(0, 1) = 4, and 2 gains m(1, 2) - m(0, 2) = 8).
  const auto cycle = counts(3, {0, 6, 2, 2, 0, 6, 6, 2, 0});
  const kemeny::PairReduction none = kemeny::fixed_pairs(cycle);
  EXPECT_EQ(none.pairs(), 0);
  // A fourth alternative 3 that every voter ranks first: 3 precedes each of them (margin 8, and
  // no c gains: m(x, c) - m(3, c) <= 0), the cycle stays open.
  const auto topped = counts(4, {0, 6, 2, 0, 2, 0, 6, 0, 6, 2, 0, 0, 8, 8, 8, 0});
  const kemeny::PairReduction top = kemeny::fixed_pairs(topped);
  EXPECT_EQ(top.by_exchange, 3);
  EXPECT_EQ(top.by_closure, 0);
  for (int x = 0; x < 3; ++x) EXPECT_TRUE(top.fixed(3, x)) << x;
  // LP columns (i < j): 1 where i precedes j, 0 where j precedes i, -1 free.
  const std::vector<signed char> columns = kemeny::pair_columns(top);
  EXPECT_EQ(columns, (std::vector<signed char>{-1, -1, 0, -1, 0, 0}));
}
