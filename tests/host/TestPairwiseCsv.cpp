#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/Error.hpp"
#include "core/preferences/Pairwise.hpp"
#include "core/preferences/PrefLib.hpp"

namespace prefs = kollective::preferences;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::string read_error(const std::string& text) {
  try {
    prefs::read_pairwise_csv(write_temp("bad.csv", text));
  } catch (const kollective::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(pairwise, reference_counts_ties_as_half_and_unranked_as_nothing) {
  prefs::Profile profile;
  profile.alternatives = 4;
  profile.names = prefs::numbered_names(4);
  profile.ballots = {{3, {{0}, {1, 2}}},   // 0 > 1 = 2 > 3 (3 unranked)
                     {2, {{3}, {1}}}};     // 3 > 1 > {0, 2} unranked
  const auto d = prefs::pairwise_reference(profile);
  EXPECT_EQ(d.at(0, 1), 2u * 3);       // 3 voters rank 0 over 1
  EXPECT_EQ(d.at(1, 2), 3u + 2 * 2);   // tie: 3 voters x 1/2 (doubled), plus 2 voters rank 1 over unranked 2
  EXPECT_EQ(d.at(2, 1), 3u);
  EXPECT_EQ(d.at(0, 3), 2u * 3);       // ranked over unranked
  EXPECT_EQ(d.at(3, 0), 2u * 2);
  EXPECT_EQ(d.at(0, 2), 2u * 3);
  EXPECT_EQ(d.at(2, 0), 0u);           // second ballot: both unranked, no preference
  EXPECT_EQ(d.at(1, 3), 2u * 3);
  EXPECT_EQ(d.at(3, 1), 2u * 2);
}

TEST(pairwise, csv_round_trip_keeps_halves_and_names) {
  prefs::PairwiseCounts counts{3, {"A", "B, the second", "C"}, {0, 5, 4, 3, 0, 7, 6, 1, 0}};
  const std::string path = testing::TempDir() + "round.csv";
  prefs::write_pairwise_csv(counts, path);
  const auto again = prefs::read_pairwise_csv(path);
  EXPECT_EQ(again.names, counts.names);
  EXPECT_EQ(again.doubled, counts.doubled);
}

TEST(pairwise, csv_without_header_gets_numbered_names) {
  const auto counts = prefs::read_pairwise_csv(write_temp("plain.csv", "0,3,1.5\n2,0,4\n3.5,1,\n"));
  EXPECT_EQ(counts.names, (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(counts.doubled, (std::vector<std::uint32_t>{0, 6, 3, 4, 0, 8, 7, 2, 0}));
}

TEST(pairwise, malformed_csv_names_line_and_cell) {
  EXPECT_NE(read_error(",A,B\nA,0,1\nB,2\n").find("bad.csv:3: row has 2 cells, expected 3"), std::string::npos)
      << read_error(",A,B\nA,0,1\nB,2\n");
  EXPECT_NE(read_error("0,-1\n2,0\n").find("bad.csv:1: cell 2 '-1' is not a count"), std::string::npos);
  EXPECT_NE(read_error("0,0.3\n2,0\n").find("cell 2 '0.3' is not a count"), std::string::npos);
  EXPECT_NE(read_error("0,x\n2,0\n").find("cell 2 'x' is not a count"), std::string::npos);
  EXPECT_NE(read_error("1,1\n2,0\n").find("bad.csv:1: diagonal cell must be 0 or empty"), std::string::npos);
  EXPECT_NE(read_error(",A,B,C\nA,0,1\nB,2,0\n").find("header names 3 alternatives but there are 2 rows"),
            std::string::npos);
  EXPECT_NE(read_error(",A,B\nA,0,1\nC,2,0\n").find("row name 'C' does not match column name 'B'"),
            std::string::npos);
  EXPECT_NE(read_error("").find("no matrix rows"), std::string::npos);
}
