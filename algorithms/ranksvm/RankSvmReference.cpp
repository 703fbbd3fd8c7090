#include "kollective/algorithms/ranksvm/RankSvmReference.hpp"

#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kollective/core/Error.hpp"
#include "kollective/core/comm/Communicator.hpp"

namespace kollective::ranksvm {

namespace {

/// Calls visit(i, j) for every preference pair: i and j in one query, y_i > y_j.
template <class Visit>
void for_each_pair(const RankData& data, Visit&& visit) {
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    for (std::int64_t i = data.query_begin[q]; i < data.query_begin[q + 1]; ++i) {
      for (std::int64_t j = data.query_begin[q]; j < data.query_begin[q + 1]; ++j) {
        if (data.labels[i] > data.labels[j]) visit(i, j);
      }
    }
  }
}

}  // namespace

ReferenceValues reference_objective(const RankData& data, double C, const std::vector<double>& w,
                                    const std::vector<double>& s) {
  const int d = data.features;
  const std::vector<double> z = predict(data, w), v = predict(data, s);
  ReferenceValues result;
  result.gradient = w;
  result.hessian_times_s = s;
  for (double value : w) result.f += 0.5 * value * value;
  std::vector<double> r(data.docs, 0.0), u(data.docs, 0.0);  // d(loss)/dz and H_z v, over pairs
  for_each_pair(data, [&](std::int64_t i, std::int64_t j) {
    const double margin = 1 - (z[i] - z[j]);
    if (margin <= 0) return;
    result.f += C * margin * margin;
    r[i] -= 2 * C * margin;
    r[j] += 2 * C * margin;
    u[i] += 2 * C * (v[i] - v[j]);
    u[j] -= 2 * C * (v[i] - v[j]);
  });
  for (std::int64_t doc = 0; doc < data.docs; ++doc) {
    for (int f = 0; f < d; ++f) {
      result.gradient[f] += r[doc] * data.x[doc * d + f];
      result.hessian_times_s[f] += u[doc] * data.x[doc * d + f];
    }
  }
  return result;
}

std::int64_t write_pair_differences(const RankData& data, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  std::int64_t pairs = 0;
  for_each_pair(data, [&](std::int64_t i, std::int64_t j) {
    const double sign = pairs % 2 == 0 ? 1.0 : -1.0;
    std::fprintf(out, "%+d", static_cast<int>(sign));
    for (int f = 0; f < data.features; ++f) {
      const double difference = sign * (data.x[i * data.features + f] - data.x[j * data.features + f]);
      if (difference != 0) std::fprintf(out, " %d:%.17g", f + 1, difference);
    }
    std::fputc('\n', out);
    ++pairs;
  });
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
  return pairs;
}

namespace {
double norm(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}
}  // namespace

std::string verify(const RankData& data, const Options& options, const Result& result, bool data_is_share) {
  const double slack = options.precision == Precision::float32 ? 1e-5 : 1e-9;
  const std::vector<double>& w = result.w;
  const std::size_t d = w.size();
  const std::vector<double> zero(d, 0.0);
  ReferenceValues at_w = reference_objective(data, options.C, w, zero);
  ReferenceValues at_zero = reference_objective(data, options.C, zero, zero);
  const comm::Communicator& communicator = options.communicator;
  if (data_is_share && communicator.size() > 1) {
    // Each rank's f and gradient hold the regularizer (1/2 w'w and w) once: keep one copy of it.
    std::vector<double> sums = {at_w.f, at_zero.f};
    sums.insert(sums.end(), at_w.gradient.begin(), at_w.gradient.end());
    sums.insert(sums.end(), at_zero.gradient.begin(), at_zero.gradient.end());
    communicator.allreduce_sum(sums);
    const double extra = communicator.size() - 1;
    double squares = 0;
    for (double x : w) squares += x * x;
    at_w.f = sums[0] - extra * 0.5 * squares;
    for (std::size_t k = 0; k < d; ++k) {
      at_w.gradient[k] = sums[2 + k] - extra * w[k];
      at_zero.gradient[k] = sums[2 + d + k];
    }
  }
  if (std::fabs(at_w.f - result.objective) > slack * std::max(1.0, std::fabs(at_w.f))) {
    fail("RankSVM verify: the objective at the trained w is ", result.objective, ", the pair reference's ", at_w.f);
  }
  if (result.converged) {
    const double initial = norm(at_zero.gradient);
    const double gradient = norm(at_w.gradient);
    if (gradient > (options.eps + slack) * initial) {
      fail("RankSVM verify: converged by eps = ", options.eps, ", but the pair reference's |g| / |g0| is ",
           gradient / initial);
    }
  }
  return "pair reference";
}

}  // namespace kollective::ranksvm
