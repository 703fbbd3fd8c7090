#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_REDUCTIONS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_REDUCTIONS_HPP

/// \file KemenyReductions.hpp
/// Data reduction for Kemeny: pairs of alternatives in the same order in every optimal ranking.
///
/// The exchange rule. Take a ranking with b before a, and swap the two. With
/// m(x, y) = o[x][y] - o[y][x] (x's margin over y), the distance changes by
///   -m(a, b) + sum over the alternatives c between them of (m(b, c) - m(a, c)),
/// as every other pair keeps its order. So where
///   m(a, b) > sum over every other c of max(0, m(b, c) - m(a, c)),
/// the swap shortens every ranking with b before a: a precedes b in every optimum.
///
/// The 3/4-majority rule (Betzler, Bredereck and Niedermeier, "Theoretical and empirical
/// evaluation of data reduction for exact Kemeny rank aggregation", 2014), for ballots that rank every
/// alternative without ties: where every pair of an alternative x is decided by at least 3/4 of
/// the voters one way or the other (x is "non-dirty"), every optimum orders x with each other
/// alternative as that majority does. In doubled counts, at least 3/4 of the voters put x before
/// y exactly when o[x][y] >= 3 o[y][x].
///
/// Pairs implied by transitivity hold in every optimum too. Both rules fix only strict majorities,
/// so neither fixes an alternative of a Condorcet component (strongly connected) before all the
/// others: some other one is at least tied with it.

#include <cstdint>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// What fixed a pair (certificates name it, and a checker applies it again).
enum class Rule : signed char { exchange = 1, majority = 2, closure = 3 };
const char* to_string(Rule rule);

struct PairReduction {
  int alternatives = 0;
  /// n x n: before[a * n + b] is 0, or the Rule that puts a before b in every optimum
  std::vector<signed char> before;
  std::int64_t by_exchange = 0;  ///< pairs the exchange rule fixed
  std::int64_t by_majority = 0;  ///< further pairs the 3/4-majority rule fixed (strict, complete ballots)
  std::int64_t by_closure = 0;   ///< further pairs implied by transitivity
  std::int64_t pairs() const { return by_exchange + by_majority + by_closure; }
  bool fixed(int a, int b) const { return before[static_cast<std::size_t>(a) * alternatives + b] != 0; }
  Rule rule(int a, int b) const { return static_cast<Rule>(before[static_cast<std::size_t>(a) * alternatives + b]); }
};

/// The pairs fixed in every optimal ranking of `o` (n^3 / 2 steps on the host); the 3/4-majority
/// rule only where o.strict_complete.
PairReduction fixed_pairs(const Counts& o);

/// The fixed pairs by LP column (KemenyLP.hpp's pair_column): 1 when i < j precedes j, 0 when j
/// precedes i, -1 when free.
std::vector<signed char> pair_columns(const PairReduction& reduction);

}  // namespace kollective::kemeny

#endif
