#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_REFERENCE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_REFERENCE_HPP

/// \file Schulze_Reference.hpp
/// Plain serial Schulze (textbook Floyd-Warshall) used by tests and verification.

#include "algorithms/schulze/Schulze.hpp"

namespace kollective::schulze {

/// The full result, paths included, from host counts; O(n^3).
Result solve_reference(const preferences::PairwiseCounts& counts, LinkRule rule);

}  // namespace kollective::schulze

#endif
