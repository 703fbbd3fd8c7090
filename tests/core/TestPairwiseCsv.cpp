#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "kollective/core/Error.hpp"
#include "kollective/tests/TestHelpers.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/core/preferences/PrefLib.hpp"

namespace prefs = kollective::preferences;

namespace {

using kollective::test::error_of;
using kollective::test::write_temp;

std::string read_error(const std::string& text) {
  return error_of([&] { prefs::read_pairwise_csv(write_temp("bad.csv", text)); });
}

}  // namespace

TEST(pairwise, reference_counts_ties_as_half_and_unranked_as_nothing) {
  prefs::Profile profile;
  profile.alternatives = 4;
  profile.names = prefs::numbered_names(4);
  profile.ballots = {{3, {{0}, {1, 2}}},  // 0 > 1 = 2 > 3 (3 unranked)
                     {2, {{3}, {1}}}};    // 3 > 1 > {0, 2} unranked
  const auto d = prefs::pairwise_reference(profile);
  EXPECT_EQ(d.at(0, 1), 2u * 3);      // 3 voters rank 0 over 1
  EXPECT_EQ(d.at(1, 2), 3u + 2 * 2);  // tie: 3 voters x 1/2 (doubled), plus 2 voters rank 1 over unranked 2
  EXPECT_EQ(d.at(2, 1), 3u);
  EXPECT_EQ(d.at(0, 3), 2u * 3);  // ranked over unranked
  EXPECT_EQ(d.at(3, 0), 2u * 2);
  EXPECT_EQ(d.at(0, 2), 2u * 3);
  EXPECT_EQ(d.at(2, 0), 0u);  // second ballot: both unranked, no preference
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
  EXPECT_NE(
      read_error(",A,B,C\nA,0,1,2\nB,2,0,1\n").find("bad.csv:1: the header names 3 alternatives but there are 2 rows"),
      std::string::npos);
  EXPECT_NE(read_error(",A,B\nA,0,1\nC,2,0\n").find("row name 'C' does not match column name 'B'"), std::string::npos);
  EXPECT_NE(read_error("").find("no matrix rows"), std::string::npos);
}

TEST(pairwise, csv_names_with_commas_quotes_and_line_breaks_round_trip) {
  prefs::PairwiseCounts counts{
      6, {"A", "B, the second", "say \"hi\"", "two\nlines", " padded ", "#hash"}, std::vector<std::uint32_t>(36, 0)};
  for (int k = 0; k < 36; ++k) counts.doubled[k] = k % 7 == 0 ? 0 : k;
  const std::string path = testing::TempDir() + "quoted.csv";
  prefs::write_pairwise_csv(counts, path);
  const auto again = prefs::read_pairwise_csv(path);
  EXPECT_EQ(again.names, counts.names);
  EXPECT_EQ(again.doubled, counts.doubled);
}

TEST(pairwise, csv_with_bom_and_crlf_reads_like_plain_text) {
  const auto plain = prefs::read_pairwise_csv(write_temp("plain.csv", ",A,B\nA,0,1.5\nB,2,0\n"));
  const auto windows = prefs::read_pairwise_csv(write_temp("windows.csv", "\xEF\xBB\xBF,A,B\r\nA,0,1.5\r\nB,2,0\r\n"));
  EXPECT_EQ(windows.names, plain.names);
  EXPECT_EQ(windows.doubled, plain.doubled);
  EXPECT_NE(read_error("\xEF\xBB\xBF,A,B\r\n\r\nA,0,1.5\r\nB,x,0\r\n").find("bad.csv:4: cell 1 'x' is not a count"),
            std::string::npos);
}

TEST(pairwise, csv_cells_are_strict_decimals) {
  for (const char* cell : {"0x1p3", "0x10", "inf", "nan", "1e999", "2abc", "-1", "0.3", "4294967296"}) {
    const std::string message = read_error(std::string("0,") + cell + "\n2,0\n");
    EXPECT_NE(message.find(std::string("bad.csv:1: cell 2 '") + cell + "' is not a count"), std::string::npos)
        << cell << ": " << message;
  }
  EXPECT_EQ(read_error("0,1e1\n2.5,0\n"), "");
  EXPECT_NE(read_error("0,1\n2,0x0\n").find("bad.csv:2: diagonal cell must be 0 or empty, got '0x0'"),
            std::string::npos);
}

TEST(pairwise, csv_names_and_shape_are_checked_before_any_n_by_n_allocation) {
  EXPECT_NE(
      read_error(",A,B,A\nA,0,1,1\nB,1,0,1\nA,1,1,0\n").find("bad.csv:1: alternatives 1 and 3 are both named 'A'"),
      std::string::npos);
  EXPECT_NE(read_error(",A,,C\n").find("bad.csv:1: alternative 2 has an empty name"), std::string::npos);
  EXPECT_NE(read_error(",A,B\n").find("bad.csv:1: header but no matrix rows"), std::string::npos);
  // Without a header the first row gives n; a column of many one-cell rows is refused at its
  // second row, not sized n x n from the row count.
  std::string column;
  for (int k = 0; k < 20000; ++k) column += "0\n";
  EXPECT_NE(read_error(column).find("bad.csv:2: more rows than the 1 alternatives of the first row"),
            std::string::npos);
  // A header naming a million alternatives fails at the first row, whose width it cannot have.
  std::string wide;
  for (int k = 1; k <= 1000000; ++k) wide += "," + std::to_string(k);
  EXPECT_NE(read_error(wide + "\n1,0,1\n2,1,0\n").find("bad.csv:2: row has 3 cells, expected 1000000"),
            std::string::npos);
  EXPECT_NE(read_error("0,1\n1,0\n1,1\n").find("bad.csv:3: more rows than the 2 alternatives of the first row"),
            std::string::npos);
}

TEST(pairwise, csv_quotes_follow_rfc_4180) {
  EXPECT_NE(read_error(",A\"B,C\n").find("bad.csv:1: quote inside an unquoted cell"), std::string::npos);
  EXPECT_NE(read_error(",\"A\"x,C\n").find("bad.csv:1: text after the closing quote"), std::string::npos);
  EXPECT_NE(read_error(",\"A,C\n0,1\n").find("bad.csv:1: quoted cell not closed before the end of the file"),
            std::string::npos);
  const auto counts = prefs::read_pairwise_csv(
      write_temp("quoted.csv", ",\"A, \"\"a\"\"\" ,\"B\nb\"\n\"A, \"\"a\"\"\",0,1\n\"B\nb\",2,0\n"));
  EXPECT_EQ(counts.names, (std::vector<std::string>{"A, \"a\"", "B\nb"}));
}

TEST(pairwise, csv_folder_is_not_a_file) {
  try {
    prefs::read_pairwise_csv(testing::TempDir());
    FAIL() << "no error";
  } catch (const kollective::Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder, not a file"), std::string::npos) << e.what();
  }
}

TEST(pairwise, csv_header_without_corner_cell_takes_rows_with_or_without_names) {
  const auto named = prefs::read_pairwise_csv(write_temp("named.csv", "A,B\nA,0,1.5\nB,2,0\n"));
  const auto bare = prefs::read_pairwise_csv(write_temp("bare.csv", "A,B\n0,1.5\n2,0\n"));
  EXPECT_EQ(named.names, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(bare.names, named.names);
  EXPECT_EQ(named.doubled, (std::vector<std::uint32_t>{0, 3, 4, 0}));
  EXPECT_EQ(bare.doubled, named.doubled);
}
