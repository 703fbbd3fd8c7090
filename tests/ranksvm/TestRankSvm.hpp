// Linear RankSVM: the device objective (sorted per-query sweeps) against the explicit pair
// reference, finite differences, and TRON training, on every backend.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <typeinfo>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmReference.hpp"
#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

namespace rs = ranksvm;

inline double relative_error(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, norm = 0;
  for (std::size_t k = 0; k < a.size(); ++k) diff += (a[k] - b[k]) * (a[k] - b[k]), norm += b[k] * b[k];
  return std::sqrt(diff) / std::max(std::sqrt(norm), 1e-300);
}

inline std::vector<double> random_vector(int n, std::uint64_t seed, double scale, bool sixteenths = false) {
  HostRng rng(seed);
  std::vector<double> v(n);
  for (auto& value : v) {
    value = scale * (2 * uniform_unit(rng) - 1);
    if (sixteenths) value = std::round(value * 16) / 16;  // with quantized features: margins of exactly 1
  }
  return v;
}

/// Training options with the given eps (TRON's log goes nowhere: the default).
inline rs::Options quiet_options(double eps) {
  rs::Options options;
  options.eps = eps;
  return options;
}

TEST(TEST_CATEGORY, ranksvm_f_at_zero_is_C_times_pairs) {
  TEST_EXECSPACE space;
  const auto data = rs::synthetic_letor("mslr", 40, 900, 7, 3);
  for (double C : {1.0, 0.25}) {
    const auto values = rs::evaluate(space, data, C, std::vector<double>(7, 0.0), std::vector<double>(7, 1.0));
    EXPECT_DOUBLE_EQ(values.f, C * static_cast<double>(rs::preference_pairs(data)));
  }
}

TEST(TEST_CATEGORY, ranksvm_hand_example) {
  // One query, three documents with labels 2, 1, 0 and one feature x = 0, 1, 3; w = 1: z = x.
  // Pairs (higher first): (0,1): 1 - (0 - 1) = 2 -> 4; (0,2): 1 - (0 - 3) = 4 -> 16;
  // (1,2): 1 - (1 - 3) = 3 -> 9. f = 1/2 + C * 29.
  const auto data = one_query({2, 1, 0}, {0, 1, 3});
  TEST_EXECSPACE space;
  const auto values = rs::evaluate(space, data, 2.0, {1.0}, {1.0});
  EXPECT_DOUBLE_EQ(values.f, 0.5 + 2.0 * 29);
  // df/dw = w + 2C sum margin * (x_j - x_i) = 1 + 4 (2*1 + 4*3 + 3*2) = 81
  EXPECT_DOUBLE_EQ(values.gradient[0], 81.0);
  // H = 1 + 2C sum (x_i - x_j)^2 = 1 + 4 (1 + 9 + 4) = 57
  EXPECT_DOUBLE_EQ(values.hessian_times_s[0], 57.0);
}

TEST(TEST_CATEGORY, ranksvm_sweeps_match_the_pair_reference) {
  TEST_EXECSPACE space;
  for (const char* shape : {"mq2007", "mslr"}) {
    const auto data = rs::synthetic_letor(shape, 60, 1500, 9, 11);
    // Split spans: the default (no query split here), then 4 and 32, so the larger queries (up to
    // about 200 documents) are sorted and scanned by several teams.
    for (std::int64_t span : {0, 4, 32}) {
      for (int trial = 0; trial < 4; ++trial) {
        // Trials 0-1: weights in sixteenths with quantized features, so margins hit exactly 1.
        const auto w = random_vector(9, 100 + trial, trial < 2 ? 2.0 : 0.7, trial < 2);
        const auto s = random_vector(9, 200 + trial, 1.0);
        const auto device = rs::evaluate(space, data, 0.5, w, s, span);
        const auto reference = rs::reference_objective(data, 0.5, w, s);
        const std::string where =
            std::string(shape) + " span " + std::to_string(span) + " trial " + std::to_string(trial);
        EXPECT_NEAR(device.f, reference.f, 1e-10 * reference.f) << where;
        EXPECT_LT(relative_error(device.gradient, reference.gradient), 1e-10) << where;
        EXPECT_LT(relative_error(device.hessian_times_s, reference.hessian_times_s), 1e-10) << where;
      }
    }
  }
}

TEST(TEST_CATEGORY, ranksvm_split_span_must_be_a_power_of_two) {
  TEST_EXECSPACE space;
  const auto data = rs::synthetic_letor("mq2007", 5, 50, 3, 1);
  EXPECT_THROW(rs::evaluate(space, data, 1.0, {0, 0, 0}, {1, 1, 1}, 24), std::exception);
  EXPECT_THROW(rs::evaluate(space, data, 1.0, {0, 0, 0}, {1, 1, 1}, 1), std::exception);
  rs::Options options;  // train's check names it before any work
  for (const std::int64_t span : {std::int64_t{-2}, std::int64_t{3}}) {
    options.split_span = span;
    EXPECT_NE(error_of([&] { rs::train(space, data, options); })
                  .find("split_span must be 0 (the backend's default) or a power of two of at least 2, got " +
                        std::to_string(span)),
              std::string::npos);
  }
}

TEST(TEST_CATEGORY, ranksvm_gradient_and_hessian_match_finite_differences) {
  // Continuous weights keep every margin away from 1 by more than the step, so f is smooth there.
  TEST_EXECSPACE space;
  const auto data = rs::synthetic_letor("mslr", 20, 400, 6, 5);
  const auto w = random_vector(6, 7, 0.3), s = random_vector(6, 8, 1.0);
  const double h = 1e-6;
  auto shifted = [&](double t) {
    auto v = w;
    for (int k = 0; k < 6; ++k) v[k] += t * s[k];
    return rs::evaluate(space, data, 1.0, v, s);
  };
  const auto at = shifted(0), plus = shifted(h), minus = shifted(-h);
  double directional = 0;
  for (int k = 0; k < 6; ++k) directional += at.gradient[k] * s[k];
  EXPECT_NEAR((plus.f - minus.f) / (2 * h), directional, 1e-6 * std::fabs(directional));
  std::vector<double> difference(6);
  for (int k = 0; k < 6; ++k) difference[k] = (plus.gradient[k] - minus.gradient[k]) / (2 * h);
  EXPECT_LT(relative_error(difference, at.hessian_times_s), 1e-6);
}

TEST(TEST_CATEGORY, ranksvm_training_converges_and_ranks) {
  TEST_EXECSPACE space;
  const auto data = rs::synthetic_letor("mq2007", 80, 3000, 12, 21);
  const rs::Options options = quiet_options(1e-5);
  const auto result = rs::train(space, data, options);
  EXPECT_TRUE(result.converged) << result.stop;
  EXPECT_LE(result.gradient_norm, 1e-5 * result.initial_gradient_norm);
  const double accuracy = rs::pairwise_accuracy(data, rs::predict(data, result.w));
  EXPECT_GT(accuracy, 0.75);  // chance is 0.5
  // The objective at the returned w, recomputed by the pair reference.
  const auto reference = rs::reference_objective(data, 1.0, result.w, result.w);
  EXPECT_NEAR(result.objective, reference.f, 1e-9 * reference.f);
  // Reproducible bit for bit: every sum has a fixed order (no floating-point atomics).
  const auto again = rs::train(space, data, options);
  EXPECT_EQ(again.w, result.w);
  EXPECT_EQ(again.cg_steps, result.cg_steps);
  // X read in place from the caller's rows (data.x empty) trains alike.
  auto without_x = data;
  const std::vector<double> rows = std::move(without_x.x);
  without_x.x.clear();
  const auto in_place = rs::train(space, without_x, options, rows.data());
  EXPECT_EQ(in_place.w, result.w);
  EXPECT_EQ(in_place.cg_steps, result.cg_steps);
}

TEST(TEST_CATEGORY, ranksvm_float_features_reach_the_same_optimum) {
  // X stored in float: the mslr-like values (k/16 times 0.1 ... 100) round by at most 2^-24
  // relative, so the optimum moves by about that much; 1e-6 relative is the promised tolerance.
  TEST_EXECSPACE space;
  const auto data = rs::synthetic_letor("mslr", 40, 1200, 12, 8);
  rs::Options options = quiet_options(1e-8);
  const auto exact = rs::train(space, data, options);
  options.precision = Precision::float32;
  const auto halved = rs::train(space, data, options);
  EXPECT_TRUE(halved.converged) << halved.stop;
  EXPECT_NEAR(halved.objective, exact.objective, 1e-6 * exact.objective);
  EXPECT_NE(halved.objective, exact.objective);  // the float path really ran
}

#ifdef KOLLECTIVE_LIBLINEAR_TRAIN
/// The weights of a LIBLINEAR model file (after its "w" line).
inline std::vector<double> liblinear_weights(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && line != "w") {
  }
  std::vector<double> w;
  for (double value; in >> value;) w.push_back(value);
  return w;
}

TEST(TEST_CATEGORY, ranksvm_optimum_matches_liblinear) {
  // LIBLINEAR's own TRON (-s 2, the primal L2-loss SVM, no bias) on the explicit pair
  // differences minimizes the same f; both optima must agree within 1e-6 relative (observed:
  // 1e-15), and so must the weights (observed: 1e-8; C = 1.01 for LIBLINEAR moves them 6e-4).
  const rs::RankData sets[] = {rs::synthetic_letor("mslr", 30, 900, 10, 5),
                               rs::synthetic_letor("mq2007", 40, 1500, 46, 6)};
  // The files go to a folder of their own in the build tree (ctest's working folder), not /tmp,
  // and are removed at the end.
  const std::filesystem::path folder =
      std::filesystem::current_path() / ("kollective_liblinear_" + std::string(typeid(TEST_EXECSPACE).name()));
  std::filesystem::create_directories(folder);
  struct Remove {
    std::filesystem::path folder;
    ~Remove() {
      std::error_code ignored;
      std::filesystem::remove_all(folder, ignored);
    }
  } cleanup{folder};
  for (const auto& data : sets) {
    const std::string stem = (folder / "liblinear").string();
    const std::int64_t pairs = rs::write_pair_differences(data, stem + "_pairs.txt");
    ASSERT_EQ(pairs, rs::preference_pairs(data));
    const std::string command = std::string(KOLLECTIVE_LIBLINEAR_TRAIN) + " -s 2 -c 1 -e 1e-8 -B -1 -q '" + stem +
                                "_pairs.txt' '" + stem + "_model.txt' > /dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const auto w_liblinear = liblinear_weights(stem + "_model.txt");
    ASSERT_EQ(w_liblinear.size(), static_cast<std::size_t>(data.features));
    TEST_EXECSPACE space;
    const rs::Options options = quiet_options(1e-8);
    const auto ours = rs::train(space, data, options);
    EXPECT_TRUE(ours.converged) << ours.stop;
    const double f_liblinear = rs::evaluate(space, data, 1.0, w_liblinear, w_liblinear).f;
    EXPECT_NEAR(ours.objective, f_liblinear, 1e-6 * f_liblinear);
    EXPECT_LT(relative_error(ours.w, w_liblinear), 1e-6);
  }
}
#endif

}  // namespace kollective::test
