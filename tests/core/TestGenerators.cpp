#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "kollective/core/Error.hpp"
#include "kollective/core/PortableMath.hpp"
#include "kollective/core/preferences/Generators.hpp"

namespace prefs = kollective::preferences;

TEST(generators, impartial_culture_is_reproducible_and_complete) {
  const auto a = prefs::impartial_culture(6, 200, 42), b = prefs::impartial_culture(6, 200, 42);
  const auto c = prefs::impartial_culture(6, 200, 43);
  EXPECT_EQ(a.total_weight(), 200);
  EXPECT_EQ(a.data_type(), prefs::DataType::soc);
  ASSERT_EQ(a.ballots.size(), b.ballots.size());
  for (size_t i = 0; i < a.ballots.size(); ++i) EXPECT_EQ(a.ballots[i].groups, b.ballots[i].groups);
  bool differs = a.ballots.size() != c.ballots.size();
  for (size_t i = 0; !differs && i < a.ballots.size(); ++i) differs = a.ballots[i].groups != c.ballots[i].groups;
  EXPECT_TRUE(differs);
}

TEST(generators, mallows_extremes) {
  const auto identical = prefs::mallows(7, 50, 0.0, 1);
  ASSERT_EQ(identical.ballots.size(), 1u);  // phi = 0: everyone casts the reference order
  for (int i = 0; i < 7; ++i) EXPECT_EQ(identical.ballots[0].groups[i][0], i);
  const auto spread = prefs::mallows(7, 500, 1.0, 1);  // phi = 1: impartial culture
  EXPECT_GT(spread.ballots.size(), 300u);
  EXPECT_THROW(prefs::mallows(5, 10, 1.5, 1), kollective::Error);
}

TEST(generators, mallows_concentrates_around_reference) {
  // With phi = 0.3 alternative 1 is first for most voters (P = 1/(1+phi+...+phi^(n-1)) ~ 0.7).
  const auto profile = prefs::mallows(6, 2000, 0.3, 5);
  std::int64_t first = 0;
  for (const auto& ballot : profile.ballots) first += ballot.groups[0][0] == 0 ? ballot.count : 0;
  EXPECT_GT(first, 1300);
  EXPECT_LT(first, 1500);
}

TEST(generators, kemeny_benchmark_profiles) {
  for (std::int64_t m : {10, 11, 50, 51}) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto profile = prefs::kemeny_benchmark(8, m, seed);
      EXPECT_EQ(profile.total_weight(), m);
      EXPECT_LE(static_cast<std::int64_t>(profile.ballots.size()), m);
      std::set<std::vector<std::vector<int>>> distinct;
      for (const auto& ballot : profile.ballots) {
        EXPECT_GT(ballot.count, 0);
        distinct.insert(ballot.groups);
      }
      EXPECT_EQ(distinct.size(), profile.ballots.size());
      EXPECT_FALSE(prefs::has_condorcet_winner(profile));
    }
  }
}

TEST(portable_math, log_exp_and_sin_cos_of_pi_x_are_within_two_ulps) {
  namespace portable = kollective::portable;
  auto ulps = [](double got, double exact) {
    return std::fabs(got - exact) / std::fabs(std::nextafter(exact, 0) - exact);
  };
  double worst_log = 0, worst_exp = 0, worst_trig = 0;
  for (int i = 1; i < 20000; ++i) {
    const double u = (i + 0.5) / 20000.0;  // (0, 1), the generators' uniforms
    for (double x : {u, 1 - u, u * 1e-12, u * 37.5, u * 1e300}) {
      if (std::fabs(std::log(x)) > 1e-3) worst_log = std::max(worst_log, ulps(portable::log(x), std::log(x)));
    }
    for (double x : {u * 40 - 20, u * 1400 - 700, u * 1e-6})
      worst_exp = std::max(worst_exp, ulps(portable::exp(x), std::exp(x)));
    const double x = 4 * u - 2;
    const auto sc = portable::sincospi(x);
    const long double angle = 3.141592653589793238462643383279502884L * x;
    for (const auto& [got, exact] : {std::pair<double, double>{sc.sin, double(std::sin(angle))},
                                     std::pair<double, double>{sc.cos, double(std::cos(angle))}}) {
      if (std::fabs(exact) > 1e-3) worst_trig = std::max(worst_trig, ulps(got, exact));
    }
  }
  EXPECT_LE(worst_log, 2.0);
  EXPECT_LE(worst_exp, 2.0);
  EXPECT_LE(worst_trig, 4.0);  // pi x rounded once before the series
  EXPECT_EQ(portable::log(1.0), 0.0);
  EXPECT_EQ(portable::exp(0.0), 1.0);
  EXPECT_EQ(portable::sincospi(0.5).sin, 1.0);
  EXPECT_EQ(portable::sincospi(1.0).cos, -1.0);
}
