#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <set>
#include <sstream>

#include "kollective/tests/TestHelpers.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/core/Random.hpp"

namespace rs = kollective::ranksvm;
using kollective::test::error_of;
using kollective::test::one_query;

namespace {

/// Test files live in a folder of their own under $KOLLECTIVE_TEST_SCRATCH or the current
/// folder (ctest runs tests in the build tree), never in /tmp, and are removed afterwards.
class Scratch {
 public:
  Scratch() {
    const char* base = std::getenv("KOLLECTIVE_TEST_SCRATCH");
    dir_ = (base ? std::filesystem::absolute(base) : std::filesystem::current_path()) /
           ("ranksvm_host_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary | std::ios::trunc) << text;
    return path(name);
  }

 private:
  std::filesystem::path dir_;
};

std::string read_text(const std::string& path) {
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

}  // namespace

class ranksvm_host : public ::testing::Test {
 protected:
  Scratch scratch;
  std::string letor_error(const std::string& text) {
    return error_of([&] { rs::read_letor(scratch.write("letor_bad.txt", text)); });
  }
  std::string model_error(const std::string& text) {
    return error_of([&] { rs::read_model(scratch.write("model_bad.txt", text)); });
  }
};

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST_F(ranksvm_host, reads_letor_lines_grouped_by_query) {
  const auto path =
      scratch.write("letor_ok.txt",
                    "# header comment\n2 qid:7 1:0.5 3:1 # doc a\n0 qid:3 2:2\n\n1 qid:7 1:0.25 2:0.75\n1 qid:3 3:4\n");
  const auto data = rs::read_letor(path);
  EXPECT_EQ(data.docs, 4);
  EXPECT_EQ(data.features, 3);
  EXPECT_EQ(data.query_ids, (std::vector<std::int64_t>{3, 7}));
  EXPECT_EQ(data.query_begin, (std::vector<std::int64_t>{0, 2, 4}));
  EXPECT_EQ(data.labels, (std::vector<double>{0, 1, 2, 1}));  // qid 3 first, file order within a query
  EXPECT_EQ(data.x, (std::vector<double>{0, 2, 0, 0, 0, 4, 0.5, 0, 1, 0.25, 0.75, 0}));
  EXPECT_EQ(data.file_index, (std::vector<std::int64_t>{1, 3, 0, 2}));
  EXPECT_EQ(rs::preference_pairs(data), 2);
  EXPECT_EQ(rs::read_letor(path, 5).features, 5);
}

TEST_F(ranksvm_host, letor_reader_takes_bom_crlf_and_the_largest_label) {
  const auto data = rs::read_letor(scratch.write("letor_bom.txt",
                                                 "\xEF\xBB\xBF"
                                                 "30 qid:1 1:1e-3\r\n+0 qid:1 2:-.5\r\n"));
  EXPECT_EQ(data.labels, (std::vector<double>{30, 0}));
  EXPECT_EQ(data.x, (std::vector<double>{1e-3, 0, 0, -0.5}));
  EXPECT_EQ(rs::read_letor(scratch.write("qid_max.txt", "1 qid:9223372036854775807 1:1\n")).query_ids[0],
            std::int64_t{9223372036854775807});
}

TEST_F(ranksvm_host, malformed_letor_files_name_file_and_line) {
  EXPECT_HAS(letor_error("1 qid:1 1:1\nx qid:1 1:2\n"), "letor_bad.txt:2: label 'x' is not a non-negative integer");
  EXPECT_HAS(letor_error("0x1 qid:1 1:1\n"), "letor_bad.txt:1: label '0x1' is not a non-negative integer");
  EXPECT_HAS(letor_error("-1 qid:1 1:1\n"), ":1: label '-1' is not a non-negative integer");
  EXPECT_HAS(letor_error("1.5 qid:1 1:1\n"), ":1: label '1.5' is not a non-negative integer");
  EXPECT_HAS(letor_error("nan qid:1 1:1\n"), ":1: label 'nan' is not a non-negative integer");
  EXPECT_HAS(letor_error("1 qid:1 1:1\n1100 qid:1 1:1\n"), ":2: label 1100 is above 30, the largest grade");
  EXPECT_HAS(letor_error("31 qid:1 1:1\n"), ":1: label 31 is above 30");
  EXPECT_HAS(letor_error("99999999999999999999 qid:1 1:1\n"), ":1: label 99999999999999999999 is above 30");
  EXPECT_HAS(letor_error("1 qid:1 2:1 1:2\n"), ":1: feature indices must increase (1 after 2)");
  EXPECT_HAS(letor_error("1 qid:1 1:1 1:2\n"), ":1: feature indices must increase (1 after 1)");
  EXPECT_HAS(letor_error("1 qid:1 0:1\n"), ":1: '0:1' is not index:value with an index from 1 to 100000000");
  EXPECT_HAS(letor_error("1 qid:1 0x2:1\n"), ":1: '0x2:1' is not index:value");
  EXPECT_HAS(letor_error("1 qid:1 3\n"), ":1: '3' is not index:value");
  EXPECT_HAS(letor_error("1 qid:1 1:abc\n"), ":1: feature 1: 'abc' is not a finite decimal number");
  EXPECT_HAS(letor_error("1 qid:1 1:nan\n"), ":1: feature 1: 'nan' is not a finite decimal number");
  EXPECT_HAS(letor_error("1 qid:1 1:0x1p3\n"), ":1: feature 1: '0x1p3' is not a finite decimal number");
  EXPECT_HAS(letor_error("1 qid:1 2:-inf\n"), ":1: feature 2: '-inf' is not a finite decimal number");
  EXPECT_HAS(letor_error("1 qid:1 2:1e999\n"), ":1: feature 2: '1e999' is not a finite decimal number");
  EXPECT_HAS(letor_error("1 qid:1 1:1\n0 1:1\n"), ":2: has no qid but line 1 has one");
  EXPECT_HAS(letor_error("1 qid:x 1:1\n"), ":1: 'qid:x' is not qid:<integer from 0 to 9223372036854775807>");
  EXPECT_HAS(letor_error("1 qid:0x10 1:1\n"), ":1: 'qid:0x10' is not qid:");
  EXPECT_HAS(letor_error("1 qid:-3 1:1\n"), ":1: 'qid:-3' is not qid:");
  // Beyond int64: refused, not clamped (clamping merged distinct queries).
  EXPECT_HAS(letor_error("1 qid:99999999999999999999 1:1\n"), ":1: 'qid:99999999999999999999' is not qid:");
  EXPECT_HAS(letor_error("\xEF\xBB\xBF"
                         "1 qid:1 1:1\r\n1 qid:1 1:x\r\n"),
             "letor_bad.txt:2: feature 1: 'x'");
  EXPECT_HAS(letor_error("# only a comment\n\n"), "letor_bad.txt: no documents");
  EXPECT_HAS(letor_error(""), "letor_bad.txt: no documents");
  EXPECT_HAS(error_of([&] { rs::read_letor(scratch.path("")); }), "is a folder, not a file");
  EXPECT_HAS(error_of([&] { rs::read_letor(scratch.path("missing.txt")); }), "does not exist");
  EXPECT_HAS(error_of([&] { rs::read_letor(scratch.write("letor_wide.txt", "1 qid:1 9:1\n"), 4); }),
             "letor_wide.txt:1: feature index 9 exceeds the 4 features");
}

TEST_F(ranksvm_host, split_queries_are_grouped_with_one_warning_and_nothing_printed) {
  const auto path =
      scratch.write("letor_split.txt", "2 qid:1 1:1\n0 qid:2 1:2\n1 qid:1 1:3\n1 qid:2 1:4\n0 qid:1 1:5\n");
  testing::internal::CaptureStderr();
  const auto data = rs::read_letor(path);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // the library is silent: the caller shows warnings
  EXPECT_EQ(data.query_ids, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(data.query_begin, (std::vector<std::int64_t>{0, 3, 5}));
  EXPECT_EQ(data.x, (std::vector<double>{1, 3, 5, 2, 4}));
  EXPECT_EQ(data.file_index, (std::vector<std::int64_t>{0, 2, 4, 1, 3}));
  EXPECT_EQ(data.warnings,
            std::vector<std::string>{path + ":3: qid 1 resumes after other queries; its documents are grouped "
                                            "into one query (as SVMrank and LIBLINEAR do); 2 more places where "
                                            "a query resumes"});
  EXPECT_TRUE(
      rs::read_letor(scratch.write("letor_sorted.txt", "2 qid:1 1:1\n1 qid:1 1:3\n0 qid:2 1:2\n")).warnings.empty());
}

TEST_F(ranksvm_host, scores_are_written_in_file_line_order) {
  const auto data =
      rs::read_letor(scratch.write("letor_order.txt", "1 qid:9 1:1\n2 qid:9 1:3\n# note\n0 qid:2 1:2\n1 qid:2 1:4\n"));
  const auto scores = rs::predict(data, {10});  // grouped order: qid 2 (20, 40), then qid 9 (10, 30)
  EXPECT_EQ(scores, (std::vector<double>{20, 40, 10, 30}));
  rs::write_scores(data, scores, scratch.path("scores.txt"));
  EXPECT_EQ(read_text(scratch.path("scores.txt")), "10\n30\n20\n40\n");
  // Data that did not come from a file keeps its own order.
  rs::write_scores(one_query({1, 0}, {0, 0}), {0.5, -2}, scratch.path("plain.txt"));
  EXPECT_EQ(read_text(scratch.path("plain.txt")), "0.5\n-2\n");
  EXPECT_HAS(error_of([&] { rs::write_scores(one_query({1}, {0}), {INFINITY}, scratch.path("inf.txt")); }),
             "not finite");
  EXPECT_FALSE(std::filesystem::exists(scratch.path("inf.txt")));
}

TEST_F(ranksvm_host, letor_and_model_files_round_trip) {
  const auto data = rs::synthetic_letor("mq2007", 5, 60, 4, 9);
  const std::string path = scratch.path("letor_round.txt");
  rs::write_letor(data, path);
  const auto back = rs::read_letor(path, 4);
  EXPECT_EQ(back.x, data.x);
  EXPECT_EQ(back.labels, data.labels);
  EXPECT_EQ(back.query_begin, data.query_begin);

  const std::vector<double> w = {0.5, -1.25, 3e-7, 0};
  const std::string model = scratch.path("model.txt");
  rs::write_model(w, model);
  EXPECT_EQ(rs::read_model(model), w);
  std::ifstream in(model);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "solver_type L2R_L2LOSS_RANKSVM");
  // LIBLINEAR's own layout: nr_class and label lines, a blank after each weight, CRLF, a BOM.
  EXPECT_EQ(rs::read_model(scratch.write("liblinear.txt",
                                         "\xEF\xBB\xBFsolver_type L2R_L2LOSS_RANKSVM\r\nnr_class 2\r\nlabel 1 -1\r\n"
                                         "nr_feature 2\r\nbias -1\r\nw\r\n0.25 \r\n-3e2 \r\n")),
            (std::vector<double>{0.25, -300}));
}

TEST_F(ranksvm_host, malformed_model_files_name_file_and_line) {
  const std::string header = "solver_type L2R_L2LOSS_RANKSVM\nnr_feature 2\nbias -1\nw\n";
  EXPECT_HAS(model_error("solver_type L2R_LR\nnr_feature 1\nbias -1\nw\n1\n"),
             "model_bad.txt:1: solver_type L2R_LR is not");
  EXPECT_HAS(model_error(header + "1\n"), "model_bad.txt: 1 weights for nr_feature 2");
  EXPECT_HAS(model_error(header + "1\n2\n3\n"), "model_bad.txt:7: more than nr_feature = 2 weights");
  EXPECT_HAS(model_error("solver_type L2R_L2LOSS_RANKSVM\nnr_feature 1\nbias 1\nw\n1\n"),
             ":3: bias 1 is not supported");
  EXPECT_HAS(model_error("solver_type L2R_L2LOSS_RANKSVM\nnr_feature 1\nbias -1\n"), "model_bad.txt: no 'w' line");
  EXPECT_HAS(model_error("solver_type L2R_L2LOSS_RANKSVM\nw\n1\n"), ":2: no nr_feature line before 'w'");
  EXPECT_HAS(model_error("nr_feature 0x2\n"), ":1: nr_feature '0x2' is not an integer from 1 to 100000000");
  EXPECT_HAS(model_error("nr_feature\n"), ":1: model header 'nr_feature' has no value");
  EXPECT_HAS(model_error("solver L2R_L2LOSS_RANKSVM\n"), ":1: unknown model header 'solver'");
  EXPECT_HAS(model_error(header + "0x1p3\n1\n"), "model_bad.txt:5: weight '0x1p3' is not a finite decimal number");
  EXPECT_HAS(model_error(header + "1\nnan\n"), ":6: weight 'nan' is not a finite decimal number");
  EXPECT_HAS(model_error(header + "1\ninf\n"), ":6: weight 'inf' is not");
  EXPECT_HAS(model_error(header + "1 2\n"), ":5: weight '1 2' is not");
  EXPECT_HAS(model_error("\xEF\xBB\xBFsolver_type L2R_L2LOSS_RANKSVM\r\nnr_feature 1\r\nbias -1\r\nw\r\nx\r\n"),
             "model_bad.txt:5: weight 'x'");
  EXPECT_HAS(error_of([&] { rs::read_model(scratch.path("")); }), "is a folder, not a file");
}

TEST_F(ranksvm_host, synthetic_data_has_the_promised_shapes) {
  const auto data = rs::synthetic_letor("mslr", 300, 60000, 8, 1);
  EXPECT_EQ(data.docs, 60000);
  EXPECT_EQ(data.queries(), 300);
  std::int64_t singles = 0, giants = 0, all_equal = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    const auto n = data.query_begin[q + 1] - data.query_begin[q];
    singles += n == 1;
    giants += n > 2000;
    bool equal = n > 1;
    for (auto d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d)
      equal = equal && data.labels[d] == data.labels[data.query_begin[q]];
    all_equal += equal;
    for (auto d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d)
      ASSERT_TRUE(data.labels[d] >= 0 && data.labels[d] <= 4);
  }
  EXPECT_GE(singles, 3);
  EXPECT_GE(giants, 1);
  EXPECT_GE(all_equal, 5);
  // Quantized: each feature takes at most 16 values (ties in w'x); scales span decades.
  double smallest_top = INFINITY, largest_top = 0;
  for (int f = 0; f < data.features; ++f) {
    std::set<double> values;
    for (std::int64_t d = 0; d < data.docs; ++d) values.insert(data.x[d * data.features + f]);
    EXPECT_LE(values.size(), 16u) << "feature " << f;
    smallest_top = std::min(smallest_top, *values.rbegin());
    largest_top = std::max(largest_top, *values.rbegin());
  }
  EXPECT_GE(largest_top / smallest_top, 100.0);
  const auto mq = rs::synthetic_letor("mq2007", 30, 900, 6, 1);
  for (double value : mq.x) ASSERT_TRUE(value * 16 == std::floor(value * 16) && value >= 0 && value < 1) << value;
  EXPECT_NE(error_of([] { rs::synthetic_letor("yahoo", 1, 1, 1, 1); }).find("unknown synthetic LETOR shape"),
            std::string::npos);
}

TEST_F(ranksvm_host, feature_scaling_maps_training_ranges_to_unit) {
  auto data = rs::read_letor(scratch.write("letor_scale.txt", "1 qid:1 1:2 2:5\n0 qid:1 1:4 2:5\n"));
  rs::scale_features(data, rs::feature_range(data));
  EXPECT_EQ(data.x, (std::vector<double>{0, 0, 1, 0}));  // constant feature 2 maps to 0
}

TEST_F(ranksvm_host, pairwise_accuracy_on_a_hand_example) {
  // One query: labels 2, 0, 1. Pairs (doc 0 > doc 1), (0 > 2), (2 > 1).
  auto data = one_query({2, 0, 1}, {0, 0, 0});
  EXPECT_EQ(rs::pairwise_accuracy(data, {0.1, 0.9, 0.5}), 0.0);  // all three reversed
  EXPECT_NEAR(rs::pairwise_accuracy(data, {0.1, 0.0, 0.5}), 2.0 / 3, 1e-12);
  EXPECT_NEAR(rs::pairwise_accuracy(data, {0.5, 0.5, 0.5}), 1.0, 1e-12);  // ties count as correct
  data.labels = {1, 1, 1};                                                // no pairs: undefined, never 0/0
  EXPECT_HAS(error_of([&] { rs::pairwise_accuracy(data, {0.1, 0.9, 0.5}); }), "undefined without preference pairs");
}

/// The worked example of docs/configuration.md: query 1 (labels 2, 0, 1; scores 0.1, 0.9, 0.5, so the
/// ranking shows labels 0, 1, 2), query 2 (labels 0, 0: no relevant document), query 3 (labels
/// 0, 1 with equal scores: the tie keeps file order, label 0 first).
class ndcg_example : public ranksvm_host {
 protected:
  rs::RankData data = rs::read_letor(scratch.write("letor_ndcg.txt",
                                                   "2 qid:1 1:0.1\n0 qid:1 1:0.9\n1 qid:1 1:0.5\n"
                                                   "0 qid:2 1:0.3\n0 qid:2 1:0.7\n"
                                                   "0 qid:3 1:0.4\n1 qid:3 1:0.4\n"));
  std::vector<double> scores = rs::predict(data, {1.0});
  std::vector<double> at(int k, rs::NdcgConvention convention) { return rs::ndcg_at(data, scores, k, convention); }
};

TEST_F(ndcg_example, letor4_reproduces_eval_score_4_0) {
  // Expected values: Eval-Score-4.0.pl (LETOR 4.0) run on this file with these scores (its %.4f
  // output widened to %.10f), per query and averaged over the queries.
  const auto letor4 = rs::NdcgConvention::letor4;
  // Query 1: gains 0, 1, 3 against ideal 3, 1, 0, discounts 1, 1, 1/log2(3).
  EXPECT_EQ(at(1, letor4), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(at(2, letor4), (std::vector<double>{0.25, 0, 1}));  // query 3: 1/1 (position 2 undiscounted)
  EXPECT_NEAR(at(3, letor4)[0], (1 + 3 / std::log2(3.0)) / 4, 1e-15);
  EXPECT_NEAR(at(3, letor4)[0], 0.7231973152, 1e-10);
  EXPECT_EQ(at(3, letor4)[2], 0.0);  // fewer than 3 documents: 0
  EXPECT_EQ(at(10, letor4), (std::vector<double>{0, 0, 0}));
  const auto mean = rs::mean_ndcg(data, scores, letor4);
  EXPECT_NEAR(mean[0], 0.3243991051, 1e-10);
  EXPECT_EQ(mean[1], 0.0);  // all labels 0
  EXPECT_EQ(mean[2], 0.5);
  // The script's averages: NDCG@2 0.4166666667, NDCG@3 0.2410657717, MeanNDCG 0.2747997017.
  auto average = [](const std::vector<double>& v) { return (v[0] + v[1] + v[2]) / 3; };
  EXPECT_NEAR(average(at(2, letor4)), 0.4166666667, 1e-10);
  EXPECT_NEAR(average(at(3, letor4)), 0.2410657717, 1e-10);
  EXPECT_NEAR(average(mean), 0.2747997017, 1e-10);
}

TEST_F(ndcg_example, modern_follows_lightgbm) {
  const auto modern = rs::NdcgConvention::modern;
  const double d2 = 1 / std::log2(3.0), d3 = 0.5;            // discounts 1/log2(j + 1) at j = 2, 3
  EXPECT_EQ(at(1, modern), (std::vector<double>{0, 1, 0}));  // query 2: no relevant document scores 1
  EXPECT_NEAR(at(2, modern)[0], d2 / (3 + d2), 1e-15);
  EXPECT_NEAR(at(2, modern)[2], d2, 1e-15);  // the tie puts label 0 first
  EXPECT_NEAR(at(3, modern)[0], (d2 + 3 * d3) / (3 + d2), 1e-15);
  EXPECT_NEAR(at(3, modern)[0], 0.5868826714, 1e-10);
  // k beyond the query's size: NDCG over min(k, n) positions.
  EXPECT_EQ(at(10, modern), at(3, modern));
  EXPECT_EQ(at(10, modern)[2], at(2, modern)[2]);
  const auto mean = rs::mean_ndcg(data, scores, modern);
  EXPECT_NEAR(mean[0], (0 + d2 / (3 + d2) + (d2 + 3 * d3) / (3 + d2)) / 3, 1e-15);
  EXPECT_EQ(mean[1], 1.0);
  EXPECT_NEAR(mean[2], d2 / 2, 1e-15);
}

/// LETOR 4.0 lines for 60 queries of 1..15 documents (labels 0-2, a tenth of the queries all 0,
/// features in quarters so that scores tie), shuffled so that every query is split.
std::string shuffled_letor4_file() {
  kollective::HostRng rng(2009);
  std::vector<std::string> lines;
  for (int q = 1; q <= 60; ++q) {
    const bool all_zero = kollective::uniform_below(rng, 10) == 0;
    for (int d = 0, n = 1 + static_cast<int>(kollective::uniform_below(rng, 15)); d < n; ++d) {
      const int label = all_zero ? 0 : std::max(0, static_cast<int>(kollective::uniform_below(rng, 4)) - 1);
      const auto f1 = kollective::uniform_below(rng, 4), f2 = kollective::uniform_below(rng, 4);
      lines.push_back(std::to_string(label) + " qid:" + std::to_string(q) + " 1:" + std::to_string(f1) +
                      " 2:" + std::to_string(f2) + " #docid = D" + std::to_string(q) + "-" + std::to_string(d) +
                      " inc = 1 prob = 0.5");
    }
  }
  for (std::size_t i = lines.size() - 1; i > 0; --i) std::swap(lines[i], lines[kollective::uniform_below(rng, i + 1)]);
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

TEST_F(ranksvm_host, letor4_matches_eval_score_4_0_on_split_queries_with_ties) {
  testing::internal::CaptureStderr();  // the split-query warning
  const auto data = rs::read_letor(scratch.write("letor4_shuffled.txt", shuffled_letor4_file()));
  testing::internal::GetCapturedStderr();
  ASSERT_EQ(data.queries(), 60);
  const auto scores = rs::predict(data, {1.0, 0.5});
  // Eval-Score-4.0.pl on this file and the scores written by write_scores (its averages of
  // NDCG@1..10 and MeanNDCG, printed with %.10f instead of %.4f).
  const double expected[] = {0.3944444444, 0.4208333333, 0.3734888608, 0.3186562320, 0.3371343926, 0.3086524230,
                             0.2808638633, 0.2603271265, 0.2455756873, 0.1919085269, 0.5047760003};
  for (int k = 1; k <= 10; ++k) {
    const auto ndcg = rs::ndcg_at(data, scores, k, rs::NdcgConvention::letor4);
    EXPECT_NEAR(std::accumulate(ndcg.begin(), ndcg.end(), 0.0) / 60, expected[k - 1], 1e-10) << "NDCG@" << k;
  }
  const auto mean = rs::mean_ndcg(data, scores, rs::NdcgConvention::letor4);
  EXPECT_NEAR(std::accumulate(mean.begin(), mean.end(), 0.0) / 60, expected[10], 1e-10);
}

TEST_F(ranksvm_host, ndcg_gains_are_exact_up_to_the_largest_label) {
  // The largest grade ranked below a 0: gains 0 and 2^30 - 1, finite and exact (1100 made NaN).
  const auto data = one_query({0, rs::max_label}, {0, 0});
  const double top = std::exp2(rs::max_label) - 1;
  EXPECT_EQ(rs::ndcg_at(data, {1, 0}, 1, rs::NdcgConvention::modern)[0], 0.0);
  EXPECT_NEAR(rs::ndcg_at(data, {1, 0}, 2, rs::NdcgConvention::modern)[0], top / std::log2(3.0) / top, 1e-15);
  EXPECT_EQ(rs::ndcg_at(data, {1, 0}, 2, rs::NdcgConvention::letor4)[0], 1.0);
}

TEST_F(ranksvm_host, pairwise_accuracy_matches_counting_every_pair) {
  // Quantized scores make ties; the sorted count must equal the O(n^2) definition.
  const auto data = rs::synthetic_letor("mslr", 30, 2000, 5, 7);
  std::vector<double> scores(data.docs);
  for (std::int64_t d = 0; d < data.docs; ++d) scores[d] = std::round(4 * data.x[d * data.features]) / 4;
  std::int64_t correct = 0, pairs = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    for (std::int64_t i = data.query_begin[q]; i < data.query_begin[q + 1]; ++i) {
      for (std::int64_t j = data.query_begin[q]; j < data.query_begin[q + 1]; ++j) {
        if (data.labels[i] > data.labels[j]) ++pairs, correct += scores[i] >= scores[j];
      }
    }
  }
  EXPECT_EQ(rs::pairwise_accuracy(data, scores), static_cast<double>(correct) / static_cast<double>(pairs));
}

// The result check every training runs (check_result): a weight per feature, finite values,
// and a reason where it did not converge.
TEST(ranksvm_result_check, refuses_missing_or_non_finite_weights) {
  const rs::RankData data = one_query({2, 1, 0}, {1.0, 0.5, 0.0});
  rs::Result good;
  good.w = {0.75};
  good.objective = 0.1;
  good.converged = true;
  EXPECT_EQ(error_of([&] { rs::check_result(data, good); }), "");
  rs::Result wide = good;
  wide.w.push_back(0);
  EXPECT_NE(error_of([&] { rs::check_result(data, wide); }).find("2 weights for 1 features"), std::string::npos);
  rs::Result not_finite = good;
  not_finite.w[0] = std::nan("");
  EXPECT_NE(error_of([&] { rs::check_result(data, not_finite); }).find("not finite"), std::string::npos);
  rs::Result negative = good;
  negative.objective = -1;
  EXPECT_NE(error_of([&] { rs::check_result(data, negative); }).find("objective -1"), std::string::npos);
  rs::Result silent = good;
  silent.converged = false;
  EXPECT_NE(error_of([&] { rs::check_result(data, silent); }).find("says not why"), std::string::npos);
}
