#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_HPP

/// \file CoalitionIP.hpp
/// IP (Rahwan, Ramchurn, Jennings, Giovannucci, "An anytime algorithm for optimal coalition
/// structure generation", JAIR 34, 2009), the serial reference. The subspaces, their bounds and the
/// rounding slack are CoalitionSubspaces.hpp's plan; the subspaces left are searched best bound
/// first by a branch and bound that picks one coalition per part, stops where the value so far plus
/// the remaining parts' bound cannot beat the incumbent, and drops a partial structure when a
/// better partition of the same agents is known (ODP-IP's local branch and bound, Michalak et al.,
/// AIJ 2016). Every test carries the plan's slack: nothing better in exact arithmetic is pruned.

#include <cstdint>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// The largest n the serial IP takes (its subspaces and statistics are held per size).
constexpr int ip_reference_max_agents = 30;

struct IpResult {
  double value = 0;
  Structure structure;         ///< an optimal structure, ascending masks
  std::int64_t subspaces = 0;  ///< integer partitions of n
  std::int64_t searched =
      0;  ///< subspaces whose branch and bound ran (the one- and two-part ones are scanned with the statistics)
  std::int64_t nodes = 0;             ///< coalitions the branch and bound placed
  double lower_bound_by_average = 0;  ///< the largest AVG_I
};

/// The optimum by IP, serially (the reference for the device IP; n <= ip_reference_max_agents).
/// With `dp_size` > 0 (n <= 24, as the serial DP), the IDP-IP hybrid (Rahwan & Jennings, "Coalition structure
/// generation: dynamic programming meets anytime optimisation", AAAI 2008): the DP first finds the best partition f of
/// every coalition of at most dp_size agents; a subspace's smallest parts that add up to at most dp_size become one
/// tail, which takes f of the agents left, so subspaces that differ only there are searched once, with the tail bounded
/// by the largest f of its size.
IpResult ip_reference(const Game& game, int dp_size = 0);

}  // namespace kollective::coalition

#endif
