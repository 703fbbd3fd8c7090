#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kollective/core/Error.hpp"
#include "kollective/tests/TestHelpers.hpp"
#include "kollective/core/preferences/PrefLib.hpp"

namespace prefs = kollective::preferences;

namespace {

using kollective::test::error_of;
using kollective::test::write_temp;

prefs::Profile parse(const std::string& text, const std::string& declared = "") {
  std::istringstream in(text);
  return prefs::parse_preflib(in, "test.toi", declared);
}

/// The error message of parsing `text` ("" when it parses).
std::string parse_error(const std::string& text, const std::string& declared = "") {
  return error_of([&] { parse(text, declared); });
}

const std::string header3 =
    "# NUMBER ALTERNATIVES: 3\n# ALTERNATIVE NAME 1: A\n# ALTERNATIVE NAME 2: B\n# ALTERNATIVE NAME 3: C\n";

}  // namespace

TEST(preflib, reads_current_format_with_ties_and_unranked) {
  const auto profile = parse("# FILE NAME: x.toi\n# TITLE: t\n# DATA TYPE: toi\n" + header3 +
                             "# NUMBER VOTERS: 9\n# NUMBER UNIQUE ORDERS: 3\n4: 1,{2, 3}\n3: 2\n2 : 3 , 1 , 2\n");
  EXPECT_EQ(profile.alternatives, 3);
  EXPECT_EQ(profile.names, (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(profile.title, "t");
  ASSERT_EQ(profile.ballots.size(), 3u);
  EXPECT_EQ(profile.ballots[0].count, 4);
  EXPECT_EQ(profile.ballots[0].groups, (std::vector<std::vector<int>>{{0}, {1, 2}}));
  EXPECT_EQ(profile.ballots[1].groups, (std::vector<std::vector<int>>{{1}}));
  EXPECT_EQ(profile.ballots[2].groups, (std::vector<std::vector<int>>{{2}, {0}, {1}}));
  EXPECT_EQ(profile.total_weight(), 9);
  EXPECT_EQ(profile.data_type(), prefs::DataType::toi);
}

TEST(preflib, reads_legacy_format) {
  const auto profile = parse("3\n1,Alice\n2,Bob\n3,Carol\n7,7,2\n5,1,2,3\n2,3,{1,2}\n");
  EXPECT_EQ(profile.names, (std::vector<std::string>{"Alice", "Bob", "Carol"}));
  ASSERT_EQ(profile.ballots.size(), 2u);
  EXPECT_EQ(profile.ballots[1].count, 2);
  EXPECT_EQ(profile.ballots[1].groups, (std::vector<std::vector<int>>{{2}, {0, 1}}));
  EXPECT_EQ(profile.data_type(), prefs::DataType::toc);
}

void expect_same_profile(const prefs::Profile& again, const prefs::Profile& original) {
  EXPECT_EQ(again.names, original.names);
  ASSERT_EQ(again.ballots.size(), original.ballots.size());
  for (size_t b = 0; b < again.ballots.size(); ++b) {
    EXPECT_EQ(again.ballots[b].count, original.ballots[b].count);
    EXPECT_EQ(again.ballots[b].groups, original.ballots[b].groups);
  }
}

TEST(preflib, round_trip_preserves_profile) {
  const auto original = parse("# DATA TYPE: toi\n" + header3 + "4: 1,{2,3}\n3: 2\n2: 3,1,2\n");
  std::ostringstream out;
  prefs::write_preflib(original, out, "round.toi");
  const std::string text = out.str();
  EXPECT_NE(text.find("# DATA TYPE: toi"), std::string::npos);
  EXPECT_NE(text.find("4: 1,{2,3}"), std::string::npos);
  expect_same_profile(parse(text), original);
}

TEST(preflib, legacy_round_trip_preserves_profile) {
  const auto original = parse("# DATA TYPE: toi\n" + header3 + "4: 1,{2,3}\n3: 2\n2: 3,1,2\n");
  std::ostringstream out;
  prefs::write_preflib_legacy(original, out);
  EXPECT_EQ(out.str().substr(0, 2), "3\n");
  expect_same_profile(parse(out.str()), original);
}

TEST(preflib, bundled_files_parse) {
  for (const char* file : {"languages_100.soc", "participation_10.soc", "participation_11.soc", "wikipedia_45.soc",
                           "committee_ties.toi", "rico2023_table1.soc"}) {
    const auto profile = prefs::read_preflib(std::string(KOLLECTIVE_TEST_DATA) + "/" + file);
    EXPECT_GT(profile.total_weight(), 0) << file;
  }
}

TEST(preflib, malformed_inputs_name_line_and_problem) {
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {header3 + "x: 1,2,3\n", "test.toi:5: count 'x' is not a whole number"},
      {header3 + "0: 1,2,3\n", "test.toi:5: count 0 is outside 1..2147483647"},
      {header3 + "2: 1,4,3\n", "test.toi:5: unknown alternative 4"},
      {header3 + "2: 1,0\n", "test.toi:5: unknown alternative 0"},
      {header3 + "2: 1,2,1\n", "test.toi:5: alternative 1 appears twice"},
      {header3 + "2: 1,{2,3\n", "test.toi:5: unbalanced braces"},
      {header3 + "2: 1,2},3\n", "test.toi:5: unbalanced braces"},
      {header3 + "2: 1,{},3\n", "test.toi:5: empty tie group"},
      {header3 + "2: 1,,3\n", "test.toi:5: unexpected ','"},
      {header3 + "2: 1 2\n", "test.toi:5: expected ','"},
      {header3 + "2 1,2\n", "test.toi:5: expected 'count: order'"},
      {header3 + "2:\n", "test.toi:5: empty order"},
      {"# NUMBER VOTERS: 3\n3: 1\n", "header lacks '# NUMBER ALTERNATIVES: n'"},
      {"# NUMBER VOTERS: 4\n" + header3 + "3: 1,2,3\n", "test.toi:1: NUMBER VOTERS is 4 but the counts sum to 3"},
      {"# NUMBER UNIQUE ORDERS: 2\n" + header3 + "3: 1,2,3\n",
       "test.toi:1: NUMBER UNIQUE ORDERS is 2 but there are 1 order lines"},
      {"# DATA TYPE: soc\n" + header3 + "3: 1,{2,3}\n", "DATA TYPE says 'soc' but the data is toc (it has ties)"},
      {"# DATA TYPE: soc\n" + header3 + "3: 1,2\n", "DATA TYPE says 'soc' but the data is soi"},
      {"# DATA TYPE: xyz\n" + header3, "test.toi:1: DATA TYPE 'xyz' is not an ordinal type"},
      {header3 + "3: 1,2,3\n# NUMBER VOTERS: 3\n", "test.toi:6: header line after the data"},
      {"# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 3: C\n1: 1,2\n",
       "test.toi:2: alternative number 3 in 'ALTERNATIVE NAME 3' is outside 1..2"},
      {"3\n1,A\n2,B\n", "file ends inside the header"},
      {"3\n1,A\n3,B\n2,C\n1,1,1\n1,1,2,3\n", "test.toi:3: expected '2,Name'"},
      {"2\n1,A\n2,B\n1,1\n1,1,2\n", "test.toi:4: expected 'voters,sum of counts,unique orders'"},
      {"2\n1,A\n2,B\n5,5,1\n3,1,2\n", "test.toi:4: the totals line's voter count is 5 but the counts sum to 3"},
      {"", "empty file"},
  };
  for (const auto& c : cases) {
    const std::string message = parse_error(c.text);
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "input:\n"
        << c.text << "\nexpected: " << c.expected << "\ngot: " << message;
  }
}

TEST(preflib, extension_must_agree_with_data) {
  EXPECT_NE(parse_error(header3 + "3: 1,2\n", "soc").find("the file extension says 'soc' but the data is soi"),
            std::string::npos);
  EXPECT_EQ(parse_error(header3 + "3: 1,2\n", "soi"), "");
}

TEST(preflib, missing_file_is_a_clear_error) {
  try {
    prefs::read_preflib("/nonexistent/file.soc");
    FAIL() << "no error";
  } catch (const kollective::Error& e) {
    EXPECT_NE(std::string(e.what()).find("PrefLib file '/nonexistent/file.soc' does not exist"), std::string::npos);
  }
}

namespace {

std::string read_error(const std::string& path) {
  try {
    prefs::read_preflib(path);
  } catch (const kollective::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(preflib, alternative_numbers_beyond_int_are_refused_not_narrowed) {
  // 2147483648 used to be narrowed to a negative int (a crash); 4294967297 wrapped to 1.
  EXPECT_NE(parse_error(header3 + "# ALTERNATIVE NAME 2147483648: X\n1: 1,2,3\n")
                .find("test.toi:5: alternative number 2147483648 in 'ALTERNATIVE NAME 2147483648' is outside 1..3"),
            std::string::npos);
  EXPECT_NE(parse_error(header3 + "# ALTERNATIVE NAME 4294967297: X\n1: 1,2,3\n")
                .find("test.toi:5: alternative number 4294967297 in 'ALTERNATIVE NAME 4294967297' is outside 1..3"),
            std::string::npos);
  EXPECT_NE(parse_error(header3 + "# ALTERNATIVE NAME 99999999999999999999999: X\n1: 1,2,3\n")
                .find("test.toi:5: alternative number 99999999999999999999999"),
            std::string::npos);
  EXPECT_NE(parse_error(header3 + "1: 1,2,99999999999999999999999\n")
                .find("test.toi:5: unknown alternative 99999999999999999999999"),
            std::string::npos);
}

TEST(preflib, names_must_be_unique_and_given_once) {
  EXPECT_NE(parse_error(header3 + "# ALTERNATIVE NAME 2: D\n1: 1,2,3\n")
                .find("test.toi:5: alternative 2 is named twice (first on line 3)"),
            std::string::npos);
  EXPECT_NE(parse_error("# NUMBER ALTERNATIVES: 3\n# ALTERNATIVE NAME 1: A\n# ALTERNATIVE NAME 2: B\n"
                        "# ALTERNATIVE NAME 3: A\n1: 1,2,3\n")
                .find("test.toi:4: alternatives 1 and 3 are both named 'A'"),
            std::string::npos);
  // An unnamed alternative is called by its number, which must not clash either.
  EXPECT_NE(parse_error("# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 1: 2\n1: 1,2\n")
                .find("test.toi:2: alternatives 1 and 2 are both named '2'"),
            std::string::npos);
  EXPECT_NE(parse_error("# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 1:\n1: 1,2\n")
                .find("test.toi:2: alternative 1 has an empty name"),
            std::string::npos);
  EXPECT_NE(parse_error("2\n1,A\n2,A\n1,1,1\n1,1,2\n").find("test.toi:3: alternatives 1 and 2 are both named 'A'"),
            std::string::npos);
}

TEST(preflib, header_counts_are_checked_where_they_are_declared) {
  EXPECT_NE(parse_error("# NUMBER ALTERNATIVES: 2\n# NUMBER ALTERNATIVES: 3\n1: 1,2\n")
                .find("test.toi:2: repeated header 'NUMBER ALTERNATIVES' (first on line 1)"),
            std::string::npos);
  EXPECT_NE(parse_error("# NUMBER ALTERNATIVES: 0\n").find("test.toi:1: NUMBER ALTERNATIVES 0 is outside 1..1048576"),
            std::string::npos);
  EXPECT_NE(
      parse_error("# NUMBER ALTERNATIVES: 2.5\n").find("test.toi:1: NUMBER ALTERNATIVES '2.5' is not a whole number"),
      std::string::npos);
  EXPECT_NE(parse_error("# NUMBER ALTERNATIVES: 2\n# NUMBER VOTERS: 4294967296\n1: 1,2\n")
                .find("test.toi:2: NUMBER VOTERS 4294967296 is outside 0..2147483647"),
            std::string::npos);
  EXPECT_NE(parse_error(header3 + "3000000000: 1,2,3\n").find("test.toi:5: count 3000000000 is outside 1..2147483647"),
            std::string::npos);
  EXPECT_NE(parse_error(header3 + "2000000000: 1,2,3\n2000000000: 1,2,3\n")
                .find("test.toi:6: the counts add up to more than 2147483647 voters"),
            std::string::npos);
  EXPECT_NE(parse_error(header3).find("test.toi:4: no orders after the header"), std::string::npos);
  EXPECT_NE(parse_error("2\n1,A\n2,B\n0,0,0\n").find("test.toi:4: no orders after the header"), std::string::npos);
}

TEST(preflib, legacy_totals_line_must_match_the_orders) {
  // voters, sum of counts, unique orders: each is checked against the order lines.
  EXPECT_NE(parse_error("2\n1,A\n2,B\n5,3,1\n3,1,2\n")
                .find("test.toi:4: the totals line's voter count is 5 but the counts sum to 3"),
            std::string::npos);
  EXPECT_NE(parse_error("2\n1,A\n2,B\n3,5,1\n3,1,2\n")
                .find("test.toi:4: the totals line's sum of counts is 5 but the counts sum to 3"),
            std::string::npos);
  EXPECT_NE(parse_error("2\n1,A\n2,B\n3,3,2\n3,1,2\n")
                .find("test.toi:4: the totals line's number of unique orders is 2 but there are 1 order lines"),
            std::string::npos);
  EXPECT_EQ(parse_error("2\n1,A\n2,B\n4,4,2\n3,1,2\n1,2,1\n"), "");
}

TEST(preflib, bom_and_crlf_read_like_plain_text) {
  const std::string plain = "# DATA TYPE: soc\n" + header3 + "4: 1,2,3\n3: 3,2,1\n";
  std::string crlf;
  for (char c : plain) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto original = prefs::read_preflib(write_temp("plain.soc", plain));
  expect_same_profile(prefs::read_preflib(write_temp("crlf.soc", "\xEF\xBB\xBF" + crlf)), original);
  expect_same_profile(parse("\xEF\xBB\xBF" + crlf), original);
  // Line numbers stay those of the file: the broken order is on line 5.
  EXPECT_NE(read_error(write_temp("broken.soc",
                                  "\xEF\xBB\xBF# NUMBER ALTERNATIVES: 3\r\n# NUMBER VOTERS: 1\r\n\r\n\r\n1: 1,7\r\n"))
                .find("broken.soc:5: unknown alternative 7"),
            std::string::npos);
  EXPECT_EQ(read_error(write_temp("legacy_crlf.soc",
                                  "\xEF\xBB\xBF"
                                  "2\r\n1,A\r\n2,B\r\n3,3,1\r\n3,1,2\r\n")),
            "");
}

TEST(preflib, a_folder_is_not_a_file) {
  EXPECT_NE(read_error(testing::TempDir()).find("is a folder, not a file"), std::string::npos);
}
