#include <gtest/gtest.h>

#include "kollective/algorithms/schulze/SchulzeReference.hpp"
#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace prefs = kollective::preferences;
namespace schulze = kollective::schulze;
using kollective::test::error_of;

namespace {
schulze::Result solve_file(const std::string& file, schulze::LinkRule rule = schulze::LinkRule::winning_votes) {
  const auto profile = prefs::read_preflib(std::string(KOLLECTIVE_TEST_DATA) + "/" + file);
  return schulze::solve_reference(prefs::pairwise_reference(profile), rule);
}
}  // namespace

// Alternatives: 0 Python, 1 Rust, 2 Go.
TEST(schulze_reference, condorcet_winner_rust) {
  const auto result = solve_file("languages_100.soc");
  EXPECT_EQ(result.winners, (std::vector<int>{1}));
  EXPECT_EQ(result.beaten, (std::vector<int>{0, 2, 1}));
}

// Alternatives: 0 Python, 1 Java, 2 Go, 3 Rust.
TEST(schulze_reference, participation_example_before_and_after) {
  const auto before = solve_file("participation_10.soc");
  EXPECT_EQ(before.winners, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(before.beaten, (std::vector<int>{0, 1, 0, 0}));  // only Java beats anyone (Rust)
  EXPECT_EQ(before.ranking, (std::vector<std::vector<int>>{{1}, {0, 2, 3}}));
  const auto after = solve_file("participation_11.soc");
  EXPECT_EQ(after.winners, (std::vector<int>{0, 1}));
  EXPECT_EQ(after.beaten[0], 2);  // Python now beats two and ranks first
  EXPECT_EQ(after.ranking.front(), (std::vector<int>{0}));
}

// Wikipedia's 45-voter example: d and p as published there, winner E, order E > A > C > B > D.
TEST(schulze_reference, wikipedia_example_paths) {
  const auto result = solve_file("wikipedia_45.soc");
  const std::vector<std::uint32_t> expected = {0,  28, 28, 30, 24,  //
                                               25, 0,  28, 33, 24,  //
                                               25, 29, 0,  29, 24,  //
                                               25, 28, 28, 0,  24,  //
                                               25, 28, 28, 31, 0};
  std::vector<std::uint32_t> halved;
  for (auto doubled : result.paths) halved.push_back(doubled / 2);
  EXPECT_EQ(halved, expected);
  EXPECT_EQ(result.winners, (std::vector<int>{4}));
  EXPECT_EQ(result.ranking, (std::vector<std::vector<int>>{{4}, {0}, {2}, {1}, {3}}));
}

TEST(schulze_reference, margins_with_ties_are_exact_halves) {
  prefs::Profile profile;
  profile.alternatives = 3;
  profile.names = prefs::numbered_names(3);
  profile.ballots = {{1, {{0, 1}, {2}}}, {2, {{1}, {0}, {2}}}, {1, {{2}, {0}}}};
  const auto counts = prefs::pairwise_reference(profile);
  // d[1][0] = 2 + 0.5 = 2.5, d[0][1] = 0.5 + 1 (ballot 3: 0 ranked over unranked 1) = 1.5
  EXPECT_EQ(counts.at(1, 0), 5u);
  EXPECT_EQ(counts.at(0, 1), 3u);
  const auto result = schulze::solve_reference(counts, schulze::LinkRule::margin);
  EXPECT_EQ(result.path(1, 0), 2u);  // margin 1, doubled
  EXPECT_EQ(result.winners, (std::vector<int>{1}));
}

// The result check every solve runs (check_result): the reference's result passes, and winners,
// beaten counts or a ranking that its paths or counts contradict are refused; verify compares
// with the reference and names it.
TEST(schulze_result_check, refuses_what_the_paths_contradict) {
  const auto profile = prefs::read_preflib(std::string(KOLLECTIVE_TEST_DATA) + "/participation_10.soc");
  const auto counts = prefs::pairwise_reference(profile);
  const schulze::Result good = schulze::solve_reference(counts, schulze::LinkRule::winning_votes);
  EXPECT_EQ(error_of([&] { schulze::check_result(good); }), "");
  EXPECT_EQ(schulze::verify(counts, {}, good), "reference");

  schulze::Result wrong_winner = good;
  wrong_winner.winners = {good.ranking.back().front()};
  EXPECT_NE(error_of([&] { schulze::check_result(wrong_winner); }).find("winners are not its paths'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { schulze::verify(counts, {}, wrong_winner); }).find("winner sets differ"), std::string::npos);

  schulze::Result reordered = good;
  std::swap(reordered.ranking.front(), reordered.ranking.back());
  EXPECT_NE(error_of([&] { schulze::check_result(reordered); }).find("not by beaten count"), std::string::npos);

  schulze::Result without_paths = good;
  without_paths.paths.clear();
  without_paths.ranking.pop_back();
  EXPECT_NE(error_of([&] { schulze::check_result(without_paths); }).find("leaves out"), std::string::npos);
}
