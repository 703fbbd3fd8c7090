#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "kollective/core/Error.hpp"

namespace kollective::ranksvm {

std::vector<double> predict(const RankData& data, const std::vector<double>& w) {
  if (static_cast<int>(w.size()) < data.features)
    fail("the model has ", w.size(), " weights, the data ", data.features, " features");
  std::vector<double> scores(data.docs);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    double s = 0;
    for (int f = 0; f < data.features; ++f) s += w[f] * data.x[d * data.features + f];
    scores[d] = s;
  }
  return scores;
}

// Per query in O(n log n): documents in increasing score, a group of equal scores at a time; a
// Fenwick tree over the query's label ranks counts the documents seen so far (score at most the
// current one, ties included) with a lower label.
std::int64_t pairwise_correct(const RankData& data, const std::vector<double>& scores) {
  std::int64_t correct = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    const std::int64_t first = data.query_begin[q], n = data.query_begin[q + 1] - first;
    std::vector<double> levels(data.labels.begin() + first, data.labels.begin() + first + n);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    std::vector<std::int64_t> order(n), rank(n), seen(levels.size() + 1, 0);
    for (std::int64_t k = 0; k < n; ++k) {
      order[k] = first + k;
      rank[k] = std::lower_bound(levels.begin(), levels.end(), data.labels[first + k]) - levels.begin();
    }
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return scores[a] < scores[b]; });
    auto below = [&](std::int64_t r) {  // seen documents with rank < r
      std::int64_t count = 0;
      for (; r > 0; r -= r & -r) count += seen[r];
      return count;
    };
    for (std::int64_t group = 0; group < n;) {
      std::int64_t end = group;
      while (end < n && scores[order[end]] == scores[order[group]]) ++end;
      for (std::int64_t k = group; k < end; ++k) {
        for (std::int64_t r = rank[order[k] - first] + 1; r <= static_cast<std::int64_t>(levels.size()); r += r & -r)
          ++seen[r];
      }
      for (std::int64_t k = group; k < end; ++k) correct += below(rank[order[k] - first]);
      group = end;
    }
  }
  return correct;
}

double pairwise_accuracy(const RankData& data, const std::vector<double>& scores) {
  const std::int64_t pairs = preference_pairs(data);
  if (pairs == 0) fail("pairwise accuracy is undefined without preference pairs");
  return static_cast<double>(pairwise_correct(data, scores)) / static_cast<double>(pairs);
}

const OptionFields<Evaluation>& evaluation_fields() {
  static const OptionFields<Evaluation> fields = {
      flag_option("scale", &Evaluation::scale, "scale each feature to [0, 1] first"),
      choice_option("ndcg", &Evaluation::ndcg, ndcg_convention_names, "NDCG's convention"),
      integers_option("ndcg_k", &Evaluation::ndcg_k, 1, 1000, "NDCG@k positions"),
  };
  return fields;
}

namespace {

double discount(std::int64_t position, NdcgConvention convention) {  // position from 1
  if (convention == NdcgConvention::modern) return 1.0 / std::log2(static_cast<double>(position) + 1.0);
  return position <= 2 ? 1.0 : 1.0 / std::log2(static_cast<double>(position));
}

double gain(double label) { return std::exp2(label) - 1; }  // exact: labels are integers <= max_label

/// NDCG@1..k_max of one query: ranked gains against ideal gains. A stable sort keeps ties in file
/// order, as both Eval-Score-4.0.pl (a stable sort of the documents in line order) and LightGBM
/// (std::stable_sort) do.
std::vector<double> query_ndcg(const RankData& data, const std::vector<double>& scores, std::int64_t q,
                               std::int64_t k_max, NdcgConvention convention) {
  const std::int64_t begin = data.query_begin[q], n = data.query_begin[q + 1] - begin;
  std::vector<std::int64_t> ranked(n);
  std::iota(ranked.begin(), ranked.end(), begin);
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::int64_t a, std::int64_t b) { return scores[a] > scores[b]; });
  std::vector<double> ideal(data.labels.begin() + begin, data.labels.begin() + begin + n);
  std::sort(ideal.begin(), ideal.end(), std::greater<double>());
  const bool letor4 = convention == NdcgConvention::letor4;
  std::vector<double> result(k_max);
  double dcg = 0, idcg = 0;
  for (std::int64_t k = 1; k <= k_max; ++k) {
    if (k > n) {
      // Eval-Score-4.0.pl computes NDCG only at positions 1..n; the missing NDCG@k counts as 0.
      // LightGBM cuts k to n.
      result[k - 1] = letor4 ? 0.0 : result[k - 2];
      continue;
    }
    dcg += gain(data.labels[ranked[k - 1]]) * discount(k, convention);
    idcg += gain(ideal[k - 1]) * discount(k, convention);
    // All labels 0: the script scores 0, LightGBM 1.
    result[k - 1] = idcg > 0 ? dcg / idcg : (letor4 ? 0.0 : 1.0);
  }
  return result;
}

}  // namespace

std::vector<double> ndcg_at(const RankData& data, const std::vector<double>& scores, int k, NdcgConvention convention) {
  if (k < 1) fail("NDCG@k needs k >= 1 (got ", k, ")");
  std::vector<double> result(data.queries());
  for (std::int64_t q = 0; q < data.queries(); ++q) result[q] = query_ndcg(data, scores, q, k, convention).back();
  return result;
}

std::vector<double> mean_ndcg(const RankData& data, const std::vector<double>& scores, NdcgConvention convention) {
  std::vector<double> result(data.queries());
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    const std::int64_t n = data.query_begin[q + 1] - data.query_begin[q];
    const auto all = query_ndcg(data, scores, q, n, convention);
    result[q] = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(n);
  }
  return result;
}

}  // namespace kollective::ranksvm
