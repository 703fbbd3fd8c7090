#include "kollective/algorithms/ranksvm/RankSvmReference.hpp"

#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"

#include <cstdio>

#include "kollective/core/Error.hpp"

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

}  // namespace kollective::ranksvm
