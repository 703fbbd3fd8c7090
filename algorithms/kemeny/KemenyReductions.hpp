#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_REDUCTIONS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_REDUCTIONS_HPP

/// \file KemenyReductions.hpp
/// Data reduction for Kemeny: pairs of alternatives in the same order in every optimal ranking,
/// by an exchange argument. Take a ranking with b before a, and swap the two. With
/// m(x, y) = o[x][y] - o[y][x] (x's margin over y), the distance changes by
///   -m(a, b) + sum over the alternatives c between them of (m(b, c) - m(a, c)),
/// as every other pair keeps its order. So where
///   m(a, b) > sum over every other c of max(0, m(b, c) - m(a, c)),
/// the swap shortens every ranking with b before a: a precedes b in every optimum. Pairs implied
/// by transitivity hold in every optimum too. Every fixed pair is a strict majority, so inside a
/// Condorcet component (strongly connected) the fixed pairs never place an alternative against
/// all others: that would split the component.

#include <cstdint>
#include <vector>

#include "algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

struct PairReduction {
  int alternatives = 0;
  std::vector<signed char> before;  ///< n x n: before[a * n + b] = 1 when a precedes b in every optimum
  std::int64_t by_exchange = 0;     ///< pairs the exchange rule fixed
  std::int64_t by_closure = 0;      ///< further pairs implied by transitivity
  std::int64_t pairs() const { return by_exchange + by_closure; }
  bool fixed(int a, int b) const { return before[static_cast<std::size_t>(a) * alternatives + b] != 0; }
};

/// The pairs fixed in every optimal ranking of `o` (n^3 / 2 steps on the host).
PairReduction fixed_pairs(const Counts& o);

/// The fixed pairs by LP column (KemenyLP.hpp's pair_column): 1 when i < j precedes j, 0 when j
/// precedes i, -1 when free.
std::vector<signed char> pair_columns(const PairReduction& reduction);

}  // namespace kollective::kemeny

#endif
