#include "kollective/algorithms/kemeny/impl/KemenyReductions.hpp"

#include <algorithm>
#include <utility>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"

namespace kollective::kemeny {

namespace {

/// At least 3/4 of the voters put x before y (o[x][y] >= 3/4 of o[x][y] + o[y][x], and some voter
/// counted).
bool three_quarters(const Counts& o, int x, int y) {
  return o.at(x, y) > 0 && o.at(x, y) >= 3 * static_cast<std::uint64_t>(o.at(y, x));
}

/// The 3/4-majority rule (KemenyReductions.hpp): every pair of a non-dirty alternative, as its
/// majority orders it, where the exchange rule did not fix it already.
void fix_by_three_quarters(const Counts& o, PairReduction& reduction) {
  const int n = o.alternatives;
  for (int x = 0; x < n; ++x) {
    bool non_dirty = true;
    for (int y = 0; y < n && non_dirty; ++y) {
      non_dirty = y == x || three_quarters(o, x, y) || three_quarters(o, y, x);
    }
    if (!non_dirty) continue;
    for (int y = 0; y < n; ++y) {
      if (y == x || reduction.fixed(x, y) || reduction.fixed(y, x)) continue;
      const auto [first, second] = three_quarters(o, x, y) ? std::pair{x, y} : std::pair{y, x};
      reduction.before[static_cast<std::size_t>(first) * n + second] = static_cast<signed char>(Rule::majority);
      ++reduction.by_majority;
    }
  }
}

}  // namespace

const char* to_string(Rule rule) {
  switch (rule) {
    case Rule::exchange:
      return "exchange";
    case Rule::majority:
      return "majority";
    case Rule::closure:
      break;
  }
  return "closure";
}

PairReduction fixed_pairs(const Counts& o) {
  const int n = o.alternatives;
  PairReduction reduction;
  reduction.alternatives = n;
  reduction.before.assign(static_cast<std::size_t>(n) * n, 0);
  auto margin = [&](int x, int y) { return static_cast<std::int64_t>(o.at(x, y)) - o.at(y, x); };
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b || margin(a, b) <= 0) continue;
      std::int64_t worst = 0;  // the most the alternatives between b and a can gain from the swap's loss
      for (int c = 0; c < n && worst < margin(a, b); ++c) {
        if (c != a && c != b) worst += std::max<std::int64_t>(0, margin(b, c) - margin(a, c));
      }
      if (worst < margin(a, b)) {
        reduction.before[static_cast<std::size_t>(a) * n + b] = static_cast<signed char>(Rule::exchange);
        ++reduction.by_exchange;
      }
    }
  }
  if (o.strict_complete) fix_by_three_quarters(o, reduction);
  // Transitive closure (Warshall): a before c before b in every optimum puts a before b.
  for (int c = 0; c < n; ++c) {
    for (int a = 0; a < n; ++a) {
      if (!reduction.fixed(a, c)) continue;
      for (int b = 0; b < n; ++b) {
        signed char& ab = reduction.before[static_cast<std::size_t>(a) * n + b];
        if (!ab && reduction.fixed(c, b)) ab = static_cast<signed char>(Rule::closure), ++reduction.by_closure;
      }
    }
  }
  return reduction;
}

std::vector<signed char> pair_columns(const PairReduction& reduction) {
  const int n = reduction.alternatives;
  std::vector<signed char> columns(static_cast<std::size_t>(n) * (n - 1) / 2, -1);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (reduction.fixed(i, j) || reduction.fixed(j, i)) columns[pair_column(i, j, n)] = reduction.fixed(i, j) ? 1 : 0;
    }
  }
  return columns;
}

}  // namespace kollective::kemeny
