#include "algorithms/ranksvm/RankSvmTypes.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/Error.hpp"

namespace kollective::ranksvm {

FeatureRange feature_range(const RankData& data) {
  FeatureRange range;
  range.low.assign(data.features, INFINITY);
  range.high.assign(data.features, -INFINITY);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    for (int f = 0; f < data.features; ++f) {
      range.low[f] = std::min(range.low[f], data.x[d * data.features + f]);
      range.high[f] = std::max(range.high[f], data.x[d * data.features + f]);
    }
  }
  return range;
}

void scale_features(RankData& data, const FeatureRange& range) {
  if (static_cast<int>(range.low.size()) != data.features)
    fail("feature scaling: the range has ", range.low.size(), " features, the data ", data.features);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    for (int f = 0; f < data.features; ++f) {
      const double width = range.high[f] - range.low[f];
      double& value = data.x[d * data.features + f];
      value = width > 0 ? (value - range.low[f]) / width : 0.0;
    }
  }
}

std::int64_t query_pairs(const RankData& data, std::int64_t q) {
  // Sorted, the documents of each label are one run.
  std::vector<double> labels(data.labels.begin() + data.query_begin[q], data.labels.begin() + data.query_begin[q + 1]);
  std::sort(labels.begin(), labels.end());
  const auto n = static_cast<std::int64_t>(labels.size());
  std::int64_t same = 0;
  for (std::int64_t begin = 0, end = 0; begin < n; begin = end) {
    while (end < n && labels[end] == labels[begin]) ++end;
    same += (end - begin) * (end - begin);
  }
  return (n * n - same) / 2;
}

std::int64_t preference_pairs(const RankData& data) {
  std::int64_t pairs = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) pairs += query_pairs(data, q);
  return pairs;
}

}  // namespace kollective::ranksvm
