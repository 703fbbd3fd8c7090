#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_RANKSVM_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_RANKSVM_REFERENCE_HPP

/// \file RankSvmReference.hpp
/// The serial reference: f, its gradient and a (generalized) Hessian-vector product computed
/// from every preference pair explicitly, O(sum of n_q^2). A pair (i, j) with y_i > y_j is active
/// when w'(x_i - x_j) < 1 (a margin of exactly 1 is inactive).

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"

namespace kollective::ranksvm {

struct ReferenceValues {
  double f = 0;
  std::vector<double> gradient, hessian_times_s;
};
ReferenceValues reference_objective(const RankData& data, double C, const std::vector<double>& w,
                                    const std::vector<double>& s);

/// The most preference pairs whose training `verify: auto` checks (the reference is O(pairs x
/// features)).
constexpr std::int64_t verify_auto_pairs = 2000000;

/// Checks a training against the pair reference: f at w equal within a relative 1e-9 (1e-5 with
/// float features), and, where TRON reported convergence, the reference gradient within eps of
/// the one at w = 0 (with that slack). `data` is the whole set, or with `data_is_share` this
/// rank's queries of it (a collective then: the ranks' pair sums are added). Returns the method it
/// compared with; fails, naming the figures, on a difference.
std::string verify(const RankData& data, const Options& options, const Result& result, bool data_is_share = false);

/// Every preference pair (i, j), y_i > y_j, as a binary SVM example in SVMlight format: x_i - x_j
/// labelled +1, or, every other pair, x_j - x_i labelled -1 (LIBLINEAR needs two classes; the
/// first line is +1). LIBLINEAR's L2-loss SVM (-s 2 -B -1) on this file minimizes exactly f(w)
/// above, so its optimum checks ours. Returns the number of pairs.
std::int64_t write_pair_differences(const RankData& data, const std::string& path);

}  // namespace kollective::ranksvm

#endif
