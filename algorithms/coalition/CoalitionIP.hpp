#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_HPP

/// \file CoalitionIP.hpp
/// IP (Rahwan, Ramchurn, Jennings, Giovannucci, "An anytime algorithm for optimal coalition
/// structure generation", JAIR 34, 2009), the serial reference: the coalition structures are split
/// into subspaces by the integer partition of n their coalition sizes form; each subspace I has
/// an upper bound UB_I, per size s the sum of the m largest values of size s where I has m parts
/// of size s (m Max_s in the paper; the m largest, as ODP-IP bounds, are tighter), and the average
/// AVG_I = sum of Avg_s (the mean value of its structures, so one of them reaches it). Subspaces whose bound cannot
/// beat the best structure known, or the largest average, are pruned; the others are searched best bound first by a
/// branch and bound that picks one coalition per part and stops where the value so far plus the remaining parts' Max
/// cannot beat the incumbent. Pruning tests carry a rounding slack, so that a structure whose
/// computed value would beat the incumbent is never pruned.

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
