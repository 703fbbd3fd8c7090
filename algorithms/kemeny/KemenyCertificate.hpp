#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_CERTIFICATE_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_CERTIFICATE_HPP

/// \file KemenyCertificate.hpp
/// A certificate of an exact Kemeny result: what a checker needs, beside the input, to verify with
/// integers alone that no ranking is shorter than the one reported (docs/certificates.md states
/// the format and what it proves; python/kollective/certificate.py is such a checker). Every
/// ranking's distance splits into its pairs across the Condorcet components, each at least the
/// smaller count, and its pairs inside each component, at least that component's optimum, which
/// the component's entry proves:
/// - trivial or heuristic: the sum over its pairs of the smaller count reaches it;
/// - dp or enumeration: no short proof; a checker may solve the component again;
/// - lp or branch-and-cut: the pairs fixed by the data reduction, each with its rule, and the tree
///   of the search (Proof), whose leaves bound every ranking that keeps those pairs.

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyReductions.hpp"
#include "kollective/algorithms/kemeny/impl/KemenySearch.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

struct ComponentCertificate {
  std::vector<int> alternatives;  ///< the component, in the order of its counts (and LP columns)
  std::string method;             ///< as Result::component_methods names it
  std::uint64_t distance = 0;     ///< the optimum of the component's counts (doubled)
  PairReduction reduction;        ///< lp, branch-and-cut: the pairs fixed from the root (indices local)
  Proof proof;                    ///< lp, branch-and-cut
};

struct Certificate {
  std::vector<ComponentCertificate> components;
};

/// Version 1 of the JSON certificate of an exact result (result.certificate set). `input_format`
/// tells the checker how to read the input: preflib, matrix-counts, matrix-signed or lolib.
std::string certificate_json(const Result& result, const Counts& o, const std::string& input_format);

}  // namespace kollective::kemeny

#endif
