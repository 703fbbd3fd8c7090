#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_LP_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_LP_HPP

/// \file KemenyLP.hpp
/// Kemeny's linear-programming lower bound: x_ij in [0, 1] for i < j (1: i before j), cost
/// o[j][i] x_ij + o[i][j] (1 - x_ij), and the transitivity (triangle) inequalities
///   x_ij + x_jk - x_ik <= 1   and   x_ik <= x_ij + x_jk   for i < j < k,
/// added as cutting planes: solve, find violated triangles, add them, solve again (COIN-OR CLP's
/// dual simplex, warm-started). The optimum of the LP with any subset of the cuts bounds every
/// ranking's distance from below; the bound is taken from the row prices by weak duality, so it
/// holds whatever the solver's tolerances. An integral optimum with no violated triangle is an
/// optimal ranking.

#include <cstdint>
#include <functional>
#include <vector>

#include "algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// A triangle inequality for i < j < k: `upper`: x_ij + x_jk - x_ik <= 1; else x_ik <= x_ij + x_jk.
struct Triangle {
  int i = 0, j = 0, k = 0;
  bool upper = true;
};

/// Violated triangles at an LP point: x[i * n + j] for i < j (the other entries are unused).
using TriangleSeparation = std::function<std::vector<Triangle>(const std::vector<double>& x, int n)>;

struct LpBound {
  std::uint64_t bound = 0;  ///< doubled, like distances: the LP optimum rounded up
  bool closed = false;      ///< no triangle is violated: the bound is the full LP relaxation's
  Ranking ranking;          ///< when the LP optimum is integral: an optimal ranking; else empty
  int rounds = 0;           ///< LP solves
  std::int64_t cuts = 0;    ///< triangle inequalities added
  double seconds = 0;
};

/// Whether this build has the LP solver (COIN-OR CLP); without it lp_bound fails.
bool lp_available();

/// The LP bound with triangle cuts, in at most `max_rounds` solves and about `max_seconds` (then
/// the bound is weaker, and `closed` false). Deterministic for a deterministic separation.
LpBound lp_bound(const Counts& o, const TriangleSeparation& separate, int max_rounds = 200, double max_seconds = 300);

/// The largest component auto gives the LP bound (n (n - 1) / 2 columns, n^3 / 6 checks a round).
constexpr int lp_max_alternatives = 300;

}  // namespace kollective::kemeny

#endif
