#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_QUERIES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_QUERIES_IMPL_HPP

/// \file RankSvmQueries_Impl.hpp
/// Helpers of the per-query counts and sums of RankSvm_Impl.hpp: label levels, padded query
/// sizes, and the binary search over a query's documents sorted by (level, z).
/// Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "kollective/core/Error.hpp"

namespace kollective::ranksvm::Impl {

constexpr int max_levels = 32;

/// Smallest power of two >= n (n >= 1).
KOKKOS_INLINE_FUNCTION std::int64_t padded(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

/// Number of the n sorted entries at `first` that come before (level, bound) in the order
/// (level, key): every entry of a lower level, and those of `level` with a key below `bound`
/// (or_equal: at most `bound`).
template <class Keys, class Levels>
KOKKOS_INLINE_FUNCTION std::int64_t count_before(const Keys& keys, const Levels& levels, std::int64_t first,
                                                 std::int64_t n, int level, double bound, bool or_equal) {
  std::int64_t low = 0, high = n;
  while (low < high) {
    const std::int64_t mid = (low + high) / 2;
    const int at_level = levels(first + mid);
    const double key = keys(first + mid);
    if (at_level < level || (at_level == level && (key < bound || (or_equal && key == bound)))) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

/// Labels as levels 0..count-1 in increasing order (ranges are kept per level).
struct LabelLevels {
  std::vector<int> of_document;
  int count = 0;
};
inline LabelLevels label_levels(const std::vector<double>& labels) {
  std::map<double, int> levels;
  for (double label : labels) levels.emplace(label, 0);
  if (levels.size() > static_cast<std::size_t>(max_levels)) {
    fail("RankSVM supports up to ", max_levels, " distinct labels (the data has ", levels.size(), ")");
  }
  LabelLevels result;
  for (auto& entry : levels) entry.second = result.count++;
  result.of_document.resize(labels.size());
  for (std::size_t d = 0; d < labels.size(); ++d) result.of_document[d] = levels[labels[d]];
  return result;
}

}  // namespace kollective::ranksvm::Impl

#endif
