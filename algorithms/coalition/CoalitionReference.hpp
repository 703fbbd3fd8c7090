#ifndef KOLLECTIVE_ALGORITHMS_COALITION_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_REFERENCE_HPP

/// \file CoalitionReference.hpp
/// Serial references: brute force over every set partition, and the plain DP over subsets.

#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// Largest n brute force accepts.
constexpr int brute_force_max_agents = 12;

/// The optimum by enumerating every set partition (serial reference).
struct BruteForceResult {
  double value = 0;
  Structure structure;
};
BruteForceResult brute_force(Values values);

/// The plain serial DP over subsets, every split (the reference for the device solvers: same
/// sums, same maxima, so the same double result bit for bit). Returns f(grand coalition).
double serial_dp(const Game& game);
/// The same DP's table: f[mask], the best partition value of every coalition of at most
/// `largest` agents (larger ones -inf).
std::vector<double> serial_dp_table(const Game& game, int largest);

/// Checks a result against brute force (n <= brute_force_max_agents): its optimum equal within
/// value_tolerance of the result's precision (not exact: brute force's between the value and the
/// upper bound). Returns the method it compared with, or "" when none applies (a larger n); fails
/// on a difference. The shape of every algorithm's verify: (input, options, result).
std::string verify(Values values, const Options& options, const Result& result);

}  // namespace kollective::coalition

#endif
