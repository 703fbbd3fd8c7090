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
/// With `dp_size` > 1 (n <= 24, as the serial DP), the DP's best partitions of the coalitions of at
/// most dp_size agents start the known values of the local branch and bound (ODP-IP's hybrid), so
/// a partial structure on those agents continues only if it is a best partition of them.
IpResult ip_reference(const Game& game, int dp_size = 0);

}  // namespace kollective::coalition

#endif
