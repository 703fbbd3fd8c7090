#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Random.hpp"

namespace kollective::ranksvm {

RankData synthetic_letor(const std::string& shape, std::int64_t queries, std::int64_t docs, int features,
                         std::uint64_t seed) {
  if (shape != "mq2007" && shape != "mslr") fail("unknown synthetic LETOR shape '", shape, "' (mq2007 or mslr)");
  if (queries < 1 || docs < queries)
    fail("synthetic LETOR data needs 1 <= queries <= documents (got ", queries, " and ", docs, ")");
  if (features < 1 || features > 100000) fail("synthetic LETOR data needs 1..100000 features (got ", features, ")");
  require_host_memory(checked_mul(docs, features, "documents x features") * 8, "the feature matrix");
  const int grades = shape == "mq2007" ? 3 : 5;
  HostRng rng(seed);
  // Heavy-tailed sizes: log-normal weights, a few giant queries, 1% single documents; the rest
  // are scaled so that the sizes add up to `docs`.
  std::vector<double> weight(queries);
  std::vector<std::int64_t> size(queries, 1);
  for (auto& w : weight) w = std::exp(1.1 * standard_normal(rng));
  for (std::int64_t q = 0; q < queries; q += 97) weight[q] = 0;                             // single documents
  for (std::int64_t q = 50; q < queries && docs > 40 * queries; q += 4001) weight[q] = -1;  // giants
  std::int64_t fixed = 0;
  for (std::int64_t q = 0; q < queries; ++q) {
    if (weight[q] < 0) size[q] = std::min<std::int64_t>(2500, docs / 4), weight[q] = 0;
    fixed += size[q];
  }
  if (fixed > docs) fixed = docs, std::fill(size.begin(), size.end(), 1);
  const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::int64_t left = docs - std::accumulate(size.begin(), size.end(), std::int64_t{0});
  for (std::int64_t q = 0; q < queries && total > 0; ++q) {
    const auto extra = static_cast<std::int64_t>(std::floor(weight[q] / total * static_cast<double>(docs - fixed)));
    size[q] += std::min(extra, left);
    left -= std::min(extra, left);
  }
  for (std::int64_t q = 0; left > 0; q = (q + 1) % queries) {
    if (weight[q] > 0 || total == 0) ++size[q], --left;
  }

  RankData data;
  data.docs = docs;
  data.features = features;
  data.labels.resize(docs);
  data.x.resize(static_cast<std::size_t>(docs) * features);
  // The task (feature loadings, scales and the hidden scoring vector) depends only on the shape
  // and the feature count, so sets drawn with different seeds are training and test sets of one
  // task. Features share a few latent factors (LETOR features are BM25, TF-IDF, ... of the same
  // fields: strongly correlated), and MSLR-like features span three decades of scale as the raw
  // MSLR-WEB30K values do; both make the Hessian ill-conditioned, as real data does.
  const int factors = std::min(features, 8);
  std::vector<double> hidden(features), loading(static_cast<std::size_t>(features) * factors), noise(features),
      scale(features);
  {
    HostRng task(0x4b6f6c6cull * static_cast<std::uint64_t>(features) + static_cast<std::uint64_t>(grades));
    for (int f = 0; f < features; ++f) {
      hidden[f] = 2 * uniform_unit(task) - 1;
      for (int k = 0; k < factors; ++k)
        loading[f * factors + k] = standard_normal(task) / std::sqrt(static_cast<double>(factors));
      noise[f] = 0.2 + 0.8 * uniform_unit(task);
      scale[f] = shape == "mslr" ? std::pow(10.0, std::floor(4 * uniform_unit(task)) - 1) : 1.0;
    }
  }
  std::int64_t d = 0;
  std::vector<double> latent(factors);
  for (std::int64_t q = 0; q < queries; ++q) {
    data.query_begin.push_back(d);
    data.query_ids.push_back(q + 1);
    const bool all_equal = q % 31 == 7;
    std::vector<double> score(size[q]);
    for (std::int64_t k = 0; k < size[q]; ++k) {
      for (auto& a : latent) a = standard_normal(rng);
      double s = 0;
      for (int f = 0; f < features; ++f) {
        double raw = noise[f] * std::sqrt(3.0) * (2 * uniform_unit(rng) - 1);
        for (int j = 0; j < factors; ++j) raw += loading[f * factors + j] * latent[j];
        const double level = std::floor(16.0 / (1.0 + std::exp(-raw))) / 16.0;  // quantized: ties in w'x
        data.x[(d + k) * features + f] = scale[f] * level;
        s += hidden[f] * level;
      }
      score[k] = s + 0.3 * std::sqrt(static_cast<double>(features) / 12.0) * standard_normal(rng);
    }
    // Grades by rank within the query: the top 5% get the highest grade, and so on down.
    std::vector<std::int64_t> order(size[q]);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return score[a] > score[b]; });
    static const double mq_cut[] = {0.1, 0.35}, mslr_cut[] = {0.02, 0.08, 0.25, 0.55};
    for (std::int64_t r = 0; r < size[q]; ++r) {
      const double at = static_cast<double>(r) / static_cast<double>(size[q]);
      int grade = 0;
      for (int g = 0; g < grades - 1; ++g) grade += at >= (grades == 3 ? mq_cut : mslr_cut)[g] ? 1 : 0;
      data.labels[d + order[r]] = all_equal ? 0.0 : static_cast<double>(grades - 1 - grade);
    }
    d += size[q];
  }
  data.query_begin.push_back(d);
  return data;
}

}  // namespace kollective::ranksvm
