// Signed weight matrices (weighted tournaments, the linear ordering problem): LOLIB's format and
// signed CSV cells, held as margins with a shift, and what a ranking's distance and linear
// ordering value are in the input's own weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <numeric>

#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/tests/TestHelpers.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace prefs = kollective::preferences;
namespace kemeny = kollective::kemeny;

namespace {

using kollective::test::error_of;
using kollective::test::write_temp;

std::string lolib_error(const std::string& text) {
  return error_of([&] { prefs::read_lolib(write_temp("bad.mat", text)); });
}

/// Sum over pairs placed i before j of w[i][j], straight from the weights.
std::int64_t agreement(const std::vector<std::int64_t>& w, int n, const std::vector<int>& ranking) {
  std::int64_t sum = 0;
  for (int p = 0; p < n; ++p) {
    for (int q = p + 1; q < n; ++q) sum += w[ranking[p] * n + ranking[q]];
  }
  return sum;
}

}  // namespace

TEST(weight_matrix, lolib_reads_a_name_line_wrapped_rows_and_negative_weights) {
  // The diagonal (9, 8, 7) is ignored; rows wrap over lines.
  const auto counts = prefs::read_lolib(write_temp("w.mat", "tiny_instance\n3\n9 5 -2\n1 8\n7 4 3 7\n"));
  ASSERT_EQ(counts.alternatives, 3);
  EXPECT_EQ(counts.names, (std::vector<std::string>{"1", "2", "3"}));
  // Margins, doubled: 1 over 2 by 4, 3 over 1 by 6, 2 over 3 by 4; shift 2 (1 + -2 + 3).
  EXPECT_EQ(counts.doubled, (std::vector<std::uint32_t>{0, 8, 0, 0, 0, 8, 12, 0, 0}));
  EXPECT_EQ(counts.shift, 2 * (1 - 2 + 3));
  EXPECT_FALSE(counts.strict_complete);
}

TEST(weight_matrix, distance_and_linear_ordering_value_match_the_weights_for_every_ranking) {
  const int n = 5;
  kollective::HostRng rng(7);
  std::vector<std::int64_t> w(n * n);
  for (std::int64_t& cell : w) cell = static_cast<std::int64_t>(kollective::uniform_below(rng, 2001)) - 1000;
  const auto counts = prefs::from_weights(w, n, prefs::numbered_names(n), "random");
  std::int64_t total = 0;  // every off-diagonal weight
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) total += i == j ? 0 : w[i * n + j];
  }
  std::vector<int> ranking(n);
  std::iota(ranking.begin(), ranking.end(), 0);
  int rankings = 0;
  do {
    const std::uint64_t distance = kemeny::distance(counts, ranking);
    const std::int64_t agree = agreement(w, n, ranking);
    EXPECT_EQ(kemeny::lop_value(counts, distance), 2 * agree);
    EXPECT_EQ(kemeny::input_distance(counts, distance), 2 * (total - agree));
    ++rankings;
  } while (std::next_permutation(ranking.begin(), ranking.end()));
  EXPECT_EQ(rankings, 120);
}

TEST(weight_matrix, signed_csv_cells_are_weights_and_counts_refuse_them) {
  const std::string path = write_temp("signed.csv", ",A,B\nA,x,-3\nB,4,0\n");
  const auto counts = prefs::read_pairwise_csv(path, prefs::Cells::signed_weights);
  EXPECT_EQ(counts.names, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(counts.doubled, (std::vector<std::uint32_t>{0, 0, 14, 0}));  // B over A by 7
  EXPECT_EQ(counts.shift, -6);
  EXPECT_THROW(prefs::read_pairwise_csv(write_temp("counts.csv", "0,-3\n4,0\n")), kollective::Error);
  try {
    prefs::read_pairwise_csv(write_temp("frac.csv", "0,1.5\n4,0\n"), prefs::Cells::signed_weights);
    ADD_FAILURE() << "a fraction was read as a weight";
  } catch (const kollective::Error& e) {
    EXPECT_NE(std::string(e.what()).find("frac.csv:1: cell 2 '1.5' is not an integer weight"), std::string::npos)
        << e.what();
  }
}

TEST(weight_matrix, lolib_errors_name_the_file_and_line) {
  EXPECT_NE(lolib_error("3\n0 1 2\n3 x 5\n").find("bad.mat:3: 'x' is not an integer"), std::string::npos);
  EXPECT_NE(lolib_error("3\n0 1 2\n3 4\n").find("bad.mat:3: the matrix ends after 5 of its 3 x 3 values"),
            std::string::npos);
  EXPECT_NE(lolib_error("2\n0 1\n2 0\n7\n").find("bad.mat:4: more than the 2 x 2 values"), std::string::npos);
  EXPECT_NE(lolib_error("0\n").find("bad.mat:1: the size 0 is not in [1, 65536]"), std::string::npos);
  EXPECT_NE(lolib_error("name\n").find("bad.mat:1: no matrix size"), std::string::npos);
  EXPECT_NE(lolib_error("2\n0 2147483648\n0 0\n").find("bad.mat:2: '2147483648' is not an integer"), std::string::npos);
  // Cells below 2^31 whose pair differs by 2^31 or more: the doubled margin would not fit.
  EXPECT_NE(lolib_error("2\n0 2000000000\n-2000000000 0\n").find("differ by 4000000000, more than 2^31 - 1"),
            std::string::npos);
  // The name line may come again after the matrix, but nothing else may.
  EXPECT_EQ(lolib_error("name\n2\n0 1\n1 0\nname\n"), "");
  EXPECT_NE(lolib_error("name\n2\n0 1\n1 0\nother\n").find("bad.mat:5: 'other' is not an integer"), std::string::npos);
  // A name only on the first line: a word later is an error.
  EXPECT_NE(lolib_error("2\nname\n0 1 1 0\n").find("bad.mat:2: 'name' is not an integer"), std::string::npos);
}
