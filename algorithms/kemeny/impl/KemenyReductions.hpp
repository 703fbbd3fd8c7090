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
/// The grouping rule (the grouping condition of Stein et al., "Partial optimality in the linear
/// ordering problem", ICML 2024, in its strict form: every optimum, not some). Take a set S of
/// alternatives holding a but not b, and a ranking with b before a. Moving S ahead of the rest,
/// each part keeping its own order, reverses only pairs t before s (s in S, t outside), each
/// changing the distance by -m(s, t); so where
///   m(a, b) > W(S) = sum over s in S and t outside S of max(0, m(t, s)),
/// the move shortens every ranking with b before a. The least W(S) over such S is the max flow
/// from a to b with capacity max(0, m(t, s)) on the arc s -> t; its minimum cut S fixes every
/// pair s before t across it with m(s, t) > W(S). Certificates give S with each such pair.
///
/// Pairs implied by transitivity hold in every optimum too. Both rules fix only strict majorities,
/// so neither fixes an alternative of a Condorcet component (strongly connected) before all the
/// others: some other one is at least tied with it.

#include <cstdint>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// What fixed a pair (certificates name it, and a checker applies it again).
enum class Rule : signed char { exchange = 1, majority = 2, closure = 3, grouping = 4 };
const char* to_string(Rule rule);

struct PairReduction {
  int alternatives = 0;
  /// n x n: before[a * n + b] is 0, or the Rule that puts a before b in every optimum
  std::vector<signed char> before;
  std::int64_t by_exchange = 0;  ///< pairs the exchange rule fixed
  std::int64_t by_majority = 0;  ///< further pairs the 3/4-majority rule fixed (strict, complete ballots)
  std::int64_t by_grouping = 0;  ///< further pairs the grouping rule fixed (up to grouping_max_alternatives)
  std::int64_t by_closure = 0;   ///< further pairs implied by transitivity
  /// The sets S of the grouping rule's cuts (ascending), and for each pair it fixed, a * n + b,
  /// the index of its set (-1 elsewhere; empty where the rule did not run)
  std::vector<std::vector<int>> sides;
  std::vector<int> side_of;
  std::int64_t pairs() const { return by_exchange + by_majority + by_grouping + by_closure; }
  bool fixed(int a, int b) const { return before[index(a, b)] != 0; }
  Rule rule(int a, int b) const { return static_cast<Rule>(before[index(a, b)]); }
  /// The set S that fixed a before b by the grouping rule
  const std::vector<int>& side(int a, int b) const { return sides[side_of[index(a, b)]]; }
  std::size_t index(int a, int b) const { return static_cast<std::size_t>(a) * alternatives + b; }
};

/// The grouping rule runs on up to this many alternatives: a max flow for each pair left unfixed,
/// about n^4 / 2 steps at worst (0.24 s at n = 79, LOLIB's usa79, on the 2-core CPU).
inline constexpr int grouping_max_alternatives = 200;

/// The pairs fixed in every optimal ranking of `o` (n^3 / 2 steps on the host, and the grouping
/// rule's max flows); the 3/4-majority rule only where o.strict_complete.
PairReduction fixed_pairs(const Counts& o);

/// The fixed pairs by LP column (KemenyLP.hpp's pair_column): 1 when i < j precedes j, 0 when j
/// precedes i, -1 when free.
std::vector<signed char> pair_columns(const PairReduction& reduction);

}  // namespace kollective::kemeny

#endif
