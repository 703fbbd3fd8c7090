#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <set>

#include "tests/TestHelpers.hpp"
#include "algorithms/ranksvm/RankData.hpp"

namespace rs = kollective::ranksvm;
using kollective::test::error_of;
using kollective::test::one_query;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}


}  // namespace

TEST(ranksvm_host, reads_letor_lines_grouped_by_query) {
  const auto path = write_temp("letor_ok.txt",
                               "# header comment\n2 qid:7 1:0.5 3:1 # doc a\n0 qid:3 2:2\n\n1 qid:7 1:0.25 2:0.75\n1 qid:3 3:4\n");
  const auto data = rs::read_letor(path);
  EXPECT_EQ(data.docs, 4);
  EXPECT_EQ(data.features, 3);
  EXPECT_EQ(data.query_ids, (std::vector<std::int64_t>{3, 7}));
  EXPECT_EQ(data.query_begin, (std::vector<std::int64_t>{0, 2, 4}));
  EXPECT_EQ(data.labels, (std::vector<double>{0, 1, 2, 1}));  // qid 3 first, file order within a query
  EXPECT_EQ(data.x, (std::vector<double>{0, 2, 0, 0, 0, 4, 0.5, 0, 1, 0.25, 0.75, 0}));
  EXPECT_EQ(rs::preference_pairs(data), 2);
  EXPECT_EQ(rs::read_letor(path, 5).features, 5);
}

TEST(ranksvm_host, malformed_letor_files_name_file_and_line) {
  auto error_for = [](const std::string& text) { return error_of([&] { rs::read_letor(write_temp("letor_bad.txt", text)); }); };
  EXPECT_NE(error_for("1 qid:1 1:1\nx qid:1 1:2\n").find("letor_bad.txt:2: label 'x' is not a finite number"), std::string::npos);
  EXPECT_NE(error_for("1 qid:1 2:1 1:2\n").find(":1: feature indices must increase (1 after 2)"), std::string::npos);
  EXPECT_NE(error_for("1 qid:1 0:1\n").find(":1: '0:1' is not index:value"), std::string::npos);
  EXPECT_NE(error_for("1 qid:1 1:abc\n").find("'1:abc' is not index:value"), std::string::npos);
  EXPECT_NE(error_for("1 qid:1 1:1\n0 1:1\n").find(":2: has no qid but line 1 has one"), std::string::npos);
  EXPECT_NE(error_for("1 qid:x 1:1\n").find("is not qid:<non-negative integer>"), std::string::npos);
  EXPECT_NE(error_for("1 qid:1 1:nan\n").find("feature 1 is not finite"), std::string::npos);
  EXPECT_NE(error_for("# only a comment\n").find("no documents"), std::string::npos);
  EXPECT_NE(error_of([&] { rs::read_letor(write_temp("letor_wide.txt", "1 qid:1 9:1\n"), 4); }).find("feature index 9 exceeds the 4 features"),
            std::string::npos);
}

TEST(ranksvm_host, letor_and_model_files_round_trip) {
  const auto data = rs::synthetic_letor("mq2007", 5, 60, 4, 9);
  const std::string path = ::testing::TempDir() + "letor_round.txt";
  rs::write_letor(data, path);
  const auto back = rs::read_letor(path, 4);
  EXPECT_EQ(back.x, data.x);
  EXPECT_EQ(back.labels, data.labels);
  EXPECT_EQ(back.query_begin, data.query_begin);

  const std::vector<double> w = {0.5, -1.25, 3e-7, 0};
  const std::string model = ::testing::TempDir() + "model.txt";
  rs::write_model(w, model);
  EXPECT_EQ(rs::read_model(model), w);
  std::ifstream in(model);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "solver_type L2R_L2LOSS_RANKSVM");
  auto error_for = [](const std::string& text) { return error_of([&] { rs::read_model(write_temp("model_bad.txt", text)); }); };
  EXPECT_NE(error_for("solver_type L2R_LR\nnr_feature 1\nbias -1\nw\n1\n").find("is not L2R_L2LOSS_RANKSVM"), std::string::npos);
  EXPECT_NE(error_for("solver_type L2R_L2LOSS_RANKSVM\nnr_feature 2\nbias -1\nw\n1\n").find("1 weights for nr_feature 2"), std::string::npos);
  EXPECT_NE(error_for("solver_type L2R_L2LOSS_RANKSVM\nnr_feature 1\nbias 1\nw\n1\n").find("bias 1 is not supported"), std::string::npos);
  EXPECT_NE(error_for("solver_type L2R_L2LOSS_RANKSVM\nnr_feature 1\nbias -1\n").find("no 'w' line"), std::string::npos);
}

TEST(ranksvm_host, synthetic_data_has_the_promised_shapes) {
  const auto data = rs::synthetic_letor("mslr", 300, 60000, 8, 1);
  EXPECT_EQ(data.docs, 60000);
  EXPECT_EQ(data.queries(), 300);
  std::int64_t singles = 0, giants = 0, all_equal = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    const auto n = data.query_begin[q + 1] - data.query_begin[q];
    singles += n == 1;
    giants += n > 2000;
    bool equal = n > 1;
    for (auto d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) equal = equal && data.labels[d] == data.labels[data.query_begin[q]];
    all_equal += equal;
    for (auto d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) ASSERT_TRUE(data.labels[d] >= 0 && data.labels[d] <= 4);
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
  EXPECT_NE(error_of([] { rs::synthetic_letor("yahoo", 1, 1, 1, 1); }).find("unknown synthetic LETOR shape"), std::string::npos);
}

TEST(ranksvm_host, feature_scaling_maps_training_ranges_to_unit) {
  auto data = rs::read_letor(write_temp("letor_scale.txt", "1 qid:1 1:2 2:5\n0 qid:1 1:4 2:5\n"));
  rs::scale_features(data, rs::feature_range(data));
  EXPECT_EQ(data.x, (std::vector<double>{0, 0, 1, 0}));  // constant feature 2 maps to 0
}

TEST(ranksvm_host, metrics_on_a_hand_example) {
  // One query: labels 2, 0, 1; scores 0.1, 0.9, 0.5 -> ranked labels 0, 1, 2 (gains 0, 1, 3).
  auto data = one_query({2, 0, 1}, {0, 0, 0});
  const std::vector<double> scores = {0.1, 0.9, 0.5};
  // LETOR 4.0: discounts 1, 1, 1/log2(3); DCG = 1 + 3/log2(3); ideal 3 + 1.
  EXPECT_NEAR(rs::ndcg_at(data, scores, 3, rs::NdcgConvention::letor4)[0], (1 + 3 / std::log2(3.0)) / 4, 1e-12);
  EXPECT_EQ(rs::ndcg_at(data, scores, 1, rs::NdcgConvention::letor4)[0], 0.0);
  // Modern: discounts 1, 1/log2(3), 1/2; DCG = 1/log2(3) + 3/2; ideal 3 + 1/log2(3).
  EXPECT_NEAR(rs::ndcg_at(data, scores, 3, rs::NdcgConvention::modern)[0], (1 / std::log2(3.0) + 1.5) / (3 + 1 / std::log2(3.0)), 1e-12);
  // Pairs (doc 0 > doc 1), (0 > 2), (2 > 1): all reversed by these scores; 2 of 3 right by others.
  EXPECT_EQ(rs::pairwise_accuracy(data, scores), 0.0);
  EXPECT_NEAR(rs::pairwise_accuracy(data, {0.1, 0.0, 0.5}), 2.0 / 3, 1e-12);
  EXPECT_NEAR(rs::pairwise_accuracy(data, {0.5, 0.5, 0.5}), 1.0, 1e-12);  // ties count as correct
  // A query of equal labels: ideal DCG 0 scores 0 (LETOR) or 1 (modern).
  data.labels = {0, 0, 0};
  EXPECT_EQ(rs::ndcg_at(data, scores, 2, rs::NdcgConvention::letor4)[0], 0.0);
  EXPECT_EQ(rs::ndcg_at(data, scores, 2, rs::NdcgConvention::modern)[0], 1.0);
}

TEST(ranksvm_host, pairwise_accuracy_matches_counting_every_pair) {
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
