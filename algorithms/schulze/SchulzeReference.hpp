#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_REFERENCE_HPP

/// \file SchulzeReference.hpp
/// Plain serial Schulze (textbook Floyd-Warshall) used by tests and verification.

#include <string>

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::schulze {

/// Largest n whose results are checked against the reference by default (`verify: auto`; the
/// serial reference is O(n^3)).
constexpr int verify_auto_limit = 512;

/// The full result, paths included, from host counts; O(n^3).
Result solve_reference(const preferences::PairwiseCounts& counts, LinkRule rule);

/// Checks a result with its paths (keep_paths) against the reference in options.rule: winners,
/// beaten counts and strongest paths equal exactly. Returns the method it compared with
/// ("reference"); fails on a difference. The shape of every algorithm's verify: (input, options,
/// result).
std::string verify(const preferences::PairwiseCounts& counts, const Options& options, const Result& result);

}  // namespace kollective::schulze

#endif
