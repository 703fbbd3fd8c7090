#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_REFERENCE_HPP

/// \file RankReference.hpp
/// The serial reference: f, its gradient and a (generalized) Hessian-vector product computed
/// from every preference pair explicitly, O(sum of n_q^2). A pair (i, j) with y_i > y_j is active
/// when w'(x_i - x_j) < 1 (a margin of exactly 1 is inactive).

#include <vector>

#include "algorithms/ranksvm/RankData.hpp"

namespace kollective::ranksvm {

struct ReferenceValues {
  double f = 0;
  std::vector<double> gradient, hessian_times_s;
};
ReferenceValues reference_objective(const RankData& data, double C, const std::vector<double>& w, const std::vector<double>& s);

}  // namespace kollective::ranksvm

#endif
