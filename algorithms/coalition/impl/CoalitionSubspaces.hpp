#ifndef KOLLECTIVE_ALGORITHMS_COALITION_SUBSPACES_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_SUBSPACES_HPP

/// \file CoalitionSubspaces.hpp
/// IP's plan (Rahwan, Ramchurn, Jennings, Giovannucci, JAIR 34, 2009), shared by the serial
/// reference and the Kokkos search: the statistics of each coalition size, the subspaces (the
/// integer partitions of n) with their bounds, and the rounding slack every pruning test carries.
///  - UB_I: per size s, the sum of the m largest values of size s where I has m parts of size s
///    (ODP-IP's bound; m times the largest, the paper's, is looser).
///  - AVG_I: the sum of the mean values of its sizes, the mean value of its structures: some
///    structure of I reaches it, so the largest AVG_I is a lower bound on the optimum.
///  - The one- and two-part subspaces are scanned with the statistics; the others are searched.
///  - The slack: every bound and every structure value is a sum of at most n terms of magnitude at
///    most n max|v| (with the DP's best partitions as terms too), so two of them computed in any
///    order differ from their exact values by less than the slack in all; a test "a + slack <= b"
///    only prunes what is worse in exact arithmetic.

#include <cstdint>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// Per coalition size s (index s, 1..n): the n / s largest values, descending; the sums of the
/// values and of their magnitudes, and the count, for the mean; and over every coalition the
/// largest |v| and the best two-part structure.
struct SizeStatistics {
  int agents = 0;
  std::vector<std::vector<double>> largest;
  std::vector<double> sum, absolute_sum, count;
  double magnitude = 0;
  double best_pair = 0;              ///< v(C) + v(all \ C) of best_pair_half (or v(all) when n = 1)
  std::uint64_t best_pair_half = 0;  ///< 0: the grand coalition alone was best

  explicit SizeStatistics(int n = 0);
  /// Adds the coalitions [begin, end) of `values`.
  void scan(const Values& values, std::uint64_t begin, std::uint64_t end);
  /// Adds another scan's statistics (of disjoint coalitions).
  void merge(const SizeStatistics& other);
  /// The bound of parts[from..] (equal sizes adjacent): per size, the sum of as many largest values as parts.
  double bound(const std::vector<int>& parts, std::size_t from = 0) const;
};

/// The statistics of every coalition of `values`, serially.
SizeStatistics scan_all(const Values& values);

/// Every integer partition of n, parts ascending.
std::vector<std::vector<int>> integer_partitions(int n);

/// A subspace to search: parts ascending, the sizes of its coalitions.
struct Subspace {
  std::vector<int> parts;
  double upper = 0;  ///< UB_I
};

/// What the search starts from: the subspaces left to search (best bound first), the best
/// structure of the scanned ones, the AVG lower bound, and the slack.
struct IpPlan {
  std::vector<Subspace> open;
  double incumbent = 0;
  Structure incumbent_structure;
  double lower_bound_by_average = 0;
  double slack = 0;
  std::int64_t subspaces = 0;  ///< integer partitions of n
};

/// The plan for `values` from their statistics.
IpPlan plan_subspaces(const Values& values, const SizeStatistics& stats);

/// A subspace as the search with a DP start places it: the sizes `placed` one by one, largest
/// first, until the agents left are at most `closed_size` (at least one placed), then those
/// `closed` agents (0: none left) by their best partition. Open subspaces alike up to their
/// closing are one search (n = 24, closed_size 8: 1562 partitions with three parts or more, 381
/// searches). remaining[d] bounds the parts d.. (the closed agents last, then 0): the largest of
/// the subspaces' bounds, or, if less, the placed parts' bound and the largest best partition of
/// the closed agents (`best_closed`, from the DP start).
struct SearchedSubspace {
  std::vector<int> placed;
  int closed = 0;
  std::vector<double> remaining;
};

/// The searches that cover `plan.open` (best bound first).
std::vector<SearchedSubspace> searched_subspaces(const IpPlan& plan, const SizeStatistics& stats, int closed_size,
                                                 const std::vector<double>& best_closed);

/// A best partition of the coalition `set` (at most 24 agents), by the subset DP over its members:
/// the structures IP closes early, by the best partition of the agents left, are written out by it.
Structure best_partition(const Values& values, std::uint64_t set);
/// The same from `compact`, the values of the subsets of `set` in submask order:
/// compact[i] = v(subsets::submask(i, set)).
Structure best_partition(const std::vector<double>& compact, std::uint64_t set);

/// Whether `upper` (a bound) may beat `incumbent`: false only when it is worse in exact arithmetic.
inline bool may_beat(double upper, double incumbent, double slack) { return upper + slack > incumbent; }

}  // namespace kollective::coalition

#endif
