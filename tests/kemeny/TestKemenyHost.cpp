// Kemeny's result check (check_result, run by every solve) on results made by hand: the serial
// reference's passes, and each inconsistency a solver bug could leave is refused.
#include <gtest/gtest.h>

#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kemeny = kollective::kemeny;
using kollective::test::error_of;

namespace {
kemeny::Result exact_from_brute_force(const kemeny::Counts& o) {
  const kemeny::BruteForceResult brute = kemeny::brute_force(o);
  kemeny::Result result;
  result.distance = result.lower_bound = brute.distance;
  result.exact = true;
  result.optima = brute.optima;
  return result;
}
}  // namespace

TEST(kemeny_result_check, refuses_rankings_that_do_not_score_the_distance) {
  const kemeny::Counts o = kollective::preferences::pairwise_reference(kollective::test::random_weak_profile(6, 9, 3));
  const kemeny::Result good = exact_from_brute_force(o);
  EXPECT_EQ(error_of([&] { kemeny::check_result(o, good); }), "");

  kemeny::Result shifted = good;
  shifted.distance += 2;
  shifted.lower_bound = shifted.distance;
  EXPECT_NE(error_of([&] { kemeny::check_result(o, shifted); }).find("scores"), std::string::npos);

  kemeny::Result repeated = good;
  repeated.optima.front()[1] = repeated.optima.front()[0];
  EXPECT_NE(error_of([&] { kemeny::check_result(o, repeated); }).find("repeats"), std::string::npos);

  kemeny::Result short_ranking = good;
  short_ranking.optima.front().pop_back();
  EXPECT_NE(error_of([&] { kemeny::check_result(o, short_ranking); }).find("ranking of 5 of 6"), std::string::npos);

  kemeny::Result loose = good;
  loose.lower_bound = good.distance - 1;  // an exact result whose bound is not its distance
  EXPECT_NE(error_of([&] { kemeny::check_result(o, loose); }).find("bound"), std::string::npos);
  loose.exact = false;
  EXPECT_EQ(error_of([&] { kemeny::check_result(o, loose); }), "");
}
