#include "algorithms/ranksvm/RankSvmTypes.hpp"

#include <algorithm>
#include <cmath>
#include <map>

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

std::int64_t preference_pairs(const RankData& data) {
  std::int64_t pairs = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    std::map<double, std::int64_t> count;
    const std::int64_t n = data.query_begin[q + 1] - data.query_begin[q];
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) ++count[data.labels[d]];
    std::int64_t same = 0;
    for (const auto& entry : count) same += entry.second * entry.second;
    pairs += (n * n - same) / 2;
  }
  return pairs;
}

}  // namespace kollective::ranksvm
