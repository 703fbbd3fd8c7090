#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_LADDERS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_LADDERS_HPP

/// \file KemenyLadders.hpp
/// Möbius ladders (KemenyLP.hpp's Ladder) violated at an LP point, found heuristically once no
/// triangle is violated. Every arc a -> b with x(a, b) < 1 is a rung; two rungs e, f that lie on one
/// 3-dicycle C (f starts at e's head or ends at its tail) are joined at the weight
///   slack(C) + (x_e + x_f) / 2 - 1 / 2,   slack(C) = 2 - (the sum of x over C's arcs).
/// A closed walk e_0, ..., e_{k-1}, e_0 whose triangles form a ladder violates it exactly when the
/// walk weighs less than 1/2 (the ladder's slack is the weight plus 1/2). From each rung that is
/// fractional (every violated ladder has one; lightest edge first, each without the rungs searched
/// before it), the lightest closed walks of k = 3, 5, ... steps are found by a shortest-walk
/// recursion that never steps straight back, and kept where their triangles pass valid_ladder.
/// Ladders of 4-dicycles (fences among them) are valid rows too, but not searched: on random
/// tournaments the ladders that close the triangle LP's gap are nearly all of triangles
/// (perf/results/kemeny/cpu_cut_gaps.md), and joining rungs by 4-dicycles makes the graph about
/// four times denser.

#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"

namespace kollective::kemeny {

/// Limits of the ladder search.
struct LadderSearch {
  int most_cycles = 7;     ///< walks of 3, 5, ... up to this many steps (odd)
  double edge_max = 0.5;   ///< rung-graph edges lighter than this only
  int most_ladders = 300;  ///< the most violated ladders returned, at most
};

/// Whether `ladder` is a Möbius ladder over alternatives 0 .. n - 1: an odd number of dicycles,
/// each 3 or 4 distinct alternatives, consecutive ones (the last and the first too) sharing exactly
/// one arc, others none, no arc in three. The certificate checker's conditions
/// (python/kollective/certificate.py, ladder_row), under which the ladder's row is valid.
bool valid_ladder(const Ladder& ladder, int n);

/// Ladders violated at the LP point x (x[i * n + j] for i < j) by more than 1e-6, most violated
/// first, distinct arc sets; the search stops once it has most_ladders. Deterministic.
std::vector<Cut> violated_ladders(const std::vector<double>& x, int n, const LadderSearch& limits = {});

}  // namespace kollective::kemeny

#endif
