#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_REFERENCE_HPP

/// \file SchulzeReference.hpp
/// Plain serial Schulze (textbook Floyd-Warshall) used by tests and verification.

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::schulze {

/// Largest n whose results are checked against the reference by default (`verify: auto`; the
/// serial reference is O(n^3)).
constexpr int verify_auto_limit = 512;

/// The full result, paths included, from host counts; O(n^3).
Result solve_reference(const preferences::PairwiseCounts& counts, LinkRule rule);

/// Fails unless a result with its paths equals the reference's winners, beaten counts and
/// strongest paths exactly.
void verify(const Result& result, const preferences::PairwiseCounts& counts, LinkRule rule);

}  // namespace kollective::schulze

#endif
