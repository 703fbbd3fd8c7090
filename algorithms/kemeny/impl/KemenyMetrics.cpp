#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"

#include <algorithm>

namespace kollective::kemeny {

std::uint64_t distance(const Counts& o, const Ranking& ranking) {
  std::uint64_t total = 0;
  for (size_t p = 0; p < ranking.size(); ++p) {
    for (size_t q = p + 1; q < ranking.size(); ++q) total += o.at(ranking[q], ranking[p]);
  }
  return total;
}

std::vector<int> places(const Ranking& ranking) {
  std::vector<int> place(ranking.size());
  for (std::size_t p = 0; p < ranking.size(); ++p) place[ranking[p]] = static_cast<int>(p);
  return place;
}

std::uint64_t lower_bound(const Counts& o) {
  std::uint64_t total = 0;
  for (int i = 0; i < o.alternatives; ++i) {
    for (int j = i + 1; j < o.alternatives; ++j) total += std::min(o.at(i, j), o.at(j, i));
  }
  return total;
}

std::int64_t input_distance(const Counts& o, std::uint64_t distance) {
  return static_cast<std::int64_t>(distance) + o.shift;
}

std::int64_t lop_value(const Counts& o, std::uint64_t distance) {
  std::int64_t margins = 0;  // below 2^63: at most 2^31 pairs of doubled cells below 2^32
  for (const std::uint32_t cell : o.doubled) margins += cell;
  return margins + o.shift - static_cast<std::int64_t>(distance);
}

}  // namespace kollective::kemeny
