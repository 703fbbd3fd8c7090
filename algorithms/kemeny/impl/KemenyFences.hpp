#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_FENCES_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_FENCES_HPP

/// \file KemenyFences.hpp
/// Fences (KemenyLP.hpp's Fence) violated at an LP point, found once no triangle is violated. With
/// x(a, b) the LP's value of a before b, the fence of pales P holds exactly when
///   F(P) = sum over p in P of x(u_p, l_p)  -  sum over p != q in P of x(u_p, l_q)  <=  1
/// (its arcs' form less t (t - 1)). F of three pales is the sum of the pairs' terms
/// H(p, q) = x_p + x_q - x(u_p, l_q) - x(u_q, l_p) less the three x_p, so the 3-fences are searched
/// exactly over the fractional pales, up to `most_pales` of them (a pale at 0 or 1 lies in no
/// violated 3-fence where the triangles hold, by the 4-dicycle inequalities they imply: Grötschel,
/// Jünger and Reinelt 1985); larger ones, up to `largest` pales, grow greedily from the best
/// 3-fences by the pale that raises F most.
/// On random tournaments fences close 2-22% of the triangle LP's gap at the root, and nothing
/// beside ladders (perf/results/kemeny/cpu_cut_gaps.md): they are an option, off by default.

#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"

namespace kollective::kemeny {

/// Limits of the fence search.
struct FenceSearch {
  int largest = 6;        ///< pales in a fence at most (3 or more)
  int most_pales = 1500;  ///< the fractional arcs searched at most, those nearest 1/2
  int seeds = 400;        ///< the best 3-fences grown into larger ones
  int most_fences = 300;  ///< the most violated fences returned, at most
  int uses_per_pale = 4;  ///< fences returned through one pale at most (keeps a round's rows diverse)
};

/// Whether `fence` is a fence over alternatives 0 .. n - 1: at least 3 pales over distinct
/// alternatives. The certificate checker's conditions (python/kollective/certificate.py,
/// fence_row), under which the fence's row is valid.
bool valid_fence(const Fence& fence, int n);

/// Fences violated at the LP point x (x[i * n + j] for i < j) by more than 1e-6, most violated
/// first, distinct pale sets. Deterministic.
std::vector<Cut> violated_fences(const std::vector<double>& x, int n, const FenceSearch& limits = {});

}  // namespace kollective::kemeny

#endif
