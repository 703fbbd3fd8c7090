#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_REFERENCE_HPP

/// \file KemenyReference.hpp
/// The serial reference (brute force over n! rankings), and the comparison of a result with the
/// optima of an independent method; kemeny::verify (Kemeny.hpp) chooses that method.

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// Largest n brute force accepts.
constexpr int brute_force_max_alternatives = 10;

/// All Kemeny rankings by brute force over n! permutations (serial reference).
struct BruteForceResult {
  std::uint64_t distance = 0;
  std::vector<Ranking> optima;  ///< all optimal rankings, lexicographic order
};
BruteForceResult brute_force(const Counts& o);

/// The optima found by an independent method, to check a result against.
struct IndependentOptima {
  std::string method;  ///< named in messages, e.g. "brute force"
  std::uint64_t distance = 0;
  std::uint64_t count = 0;
  std::vector<Ranking> optima;  ///< sorted
};
/// Fails unless `result` has the same optimum and, when it counted them, the same number of
/// optimal rankings and (when at most `list_limit`) the same rankings; a result that did not
/// count them all (a heuristic meeting the bound, a search that stopped listing) may not claim
/// more, and must list only optima.
void compare_optima(const Result& result, const IndependentOptima& other, int list_limit);

}  // namespace kollective::kemeny

#endif
