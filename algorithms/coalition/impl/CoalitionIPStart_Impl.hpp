#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_START_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_START_IMPL_HPP

/// \file CoalitionIPStart_Impl.hpp
/// What the IP search starts from: the statistics of every coalition size (on the space, or read
/// in place on the host) and the best partitions of the small coalitions (the DP over sizes up to
/// ip_dp_size), which start the known values of its local branch and bound.
/// Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"
#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::coalition::Impl {

/// The statistics of every coalition (SizeStatistics) from the values on the space: per size, the
/// sums and the largest |v| in one reduction over its coalitions, then its largest values, a
/// distinct value per reduction (the largest below the last, and how many coalitions hold it);
/// and the best two-part structure, over the coalitions without the last agent.
template <class ExecSpace, class Memory>
SizeStatistics statistics_on(const ExecSpace& space, const Kokkos::View<const double*, Memory>& v, int n,
                             const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>& binomial) {
  SizeStatistics stats(n);
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  for (int size = 1; size <= n; ++size) {
    const auto count = static_cast<std::uint64_t>(subsets::choose(n, size));
    const Range64<ExecSpace> coalitions(space, 0, count);
    double sum = 0, absolute = 0, magnitude = 0;
    Kokkos::parallel_reduce(
        "Kollective::IP::size_sums", coalitions,
        KOKKOS_LAMBDA(const std::uint64_t r, double& to_sum, double& to_absolute, double& to_magnitude) {
          const double value = v(subsets::unrank_colex(r, size, n, binomial));
          to_sum += value;
          to_absolute += Kokkos::fabs(value);
          to_magnitude = Kokkos::max(to_magnitude, Kokkos::fabs(value));
        },
        Kokkos::Sum<double>(sum), Kokkos::Sum<double>(absolute), Kokkos::Max<double>(magnitude));
    stats.sum[size] = sum;
    stats.absolute_sum[size] = absolute;
    stats.count[size] = static_cast<double>(count);
    stats.magnitude = std::max(stats.magnitude, magnitude);
    const std::size_t most = static_cast<std::size_t>(n / size);
    for (double below = INFINITY; stats.largest[size].size() < most;) {
      double next = -INFINITY;
      Kokkos::parallel_reduce(
          "Kollective::IP::size_largest", coalitions,
          KOKKOS_LAMBDA(const std::uint64_t r, double& into) {
            const double value = v(subsets::unrank_colex(r, size, n, binomial));
            if (value < below) into = Kokkos::max(into, value);
          },
          Kokkos::Max<double>(next));
      std::uint64_t holders = 0;
      Kokkos::parallel_reduce(
          "Kollective::IP::size_ties", coalitions,
          KOKKOS_LAMBDA(const std::uint64_t r, std::uint64_t& into) {
            into += v(subsets::unrank_colex(r, size, n, binomial)) == next ? 1 : 0;
          },
          holders);
      for (std::uint64_t k = 0; k < holders && stats.largest[size].size() < most; ++k)
        stats.largest[size].push_back(next);
      below = next;
    }
  }
  // Two-part structures {C, all \ C} once each: C without agent n - 1 (C = 0: the grand coalition).
  Kokkos::MaxLoc<double, std::uint64_t>::value_type pair;
  Kokkos::parallel_reduce(
      "Kollective::IP::best_pair", Range64<ExecSpace>(space, 0, (all >> 1) + 1),
      KOKKOS_LAMBDA(const std::uint64_t c, Kokkos::MaxLoc<double, std::uint64_t>::value_type& into) {
        const double value = v(c) + v(all ^ c);
        if (value > into.val) {
          into.val = value;
          into.loc = c;
        }
      },
      Kokkos::MaxLoc<double, std::uint64_t>(pair));
  stats.best_pair = pair.val;
  stats.best_pair_half = pair.loc;
  return stats;
}

/// The statistics of every coalition read in place on the host, in chunks over the threads of
/// `space` (a host space; in mask order, cheaper there than statistics_on's unranking), merged
/// in order.
template <class HostSpace>
SizeStatistics scan_in_parallel(const HostSpace& space, const Values& values) {
  const std::uint64_t coalitions = std::uint64_t{1} << values.agents;
  const std::uint64_t chunks = std::min<std::uint64_t>(coalitions, 1024);
  std::vector<SizeStatistics> parts(chunks, SizeStatistics(values.agents));
  Kokkos::parallel_for(
      "Kollective::IP::statistics", Kokkos::RangePolicy<HostSpace>(space, 0, chunks),
      [&](const std::uint64_t c) { parts[c].scan(values, coalitions * c / chunks, coalitions * (c + 1) / chunks); });
  space.fence();
  for (std::uint64_t c = 1; c < chunks; ++c) parts[0].merge(parts[c]);
  return parts[0];
}

/// The DP start's splits as a share of IDP's: small, since the DP's scattered reads cost about
/// ten times IDP's blocked ones.
constexpr double ip_dp_start_share = 0.003;

/// The largest size whose coalitions' best partitions the search starts from. The DP over sizes
/// 2..d costs sum C(n, s) 2^(s-1) splits, kept within ip_dp_start_share of IDP's (n = 22: d = 7;
/// 24: 8; 28: 10). Where the values make the search long (modified uniform) the start cuts its
/// nodes several times over; where they do not, it adds no more than the DP's own time (the
/// nodes stay the same).
inline int ip_dp_size(int n) {
  const double budget = split_count(n, Method::idp) * ip_dp_start_share;
  double cost = 0;
  int d = 1;
  while (d < n && (cost += subsets::choose(n, d + 1) * std::ldexp(1.0, d)) <= budget) ++d;
  return d;
}

/// known(C) = the best partition of C, for every C of 2..largest agents (known holds v), size by
/// size: the plain DP, one thread per coalition (colex order within a size).
template <class ExecSpace, class Memory>
void best_partitions_up_to(const ExecSpace& space, const Kokkos::View<double*, Memory>& known, int n, int largest,
                           const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>& binomial) {
  for (int size = 2; size <= largest; ++size) {
    Kokkos::parallel_for(
        "Kollective::IP::best_partitions",
        Range64<ExecSpace>(space, 0, static_cast<std::uint64_t>(subsets::choose(n, size))),
        KOKKOS_LAMBDA(const std::uint64_t r) {
          const std::uint64_t set = subsets::unrank_colex(r, size, n, binomial);
          const std::uint64_t lowest = set & (~set + 1), others = set ^ lowest;
          double best = known(set);
          for (std::uint64_t sub = (others - 1) & others; sub != others; sub = (sub - 1) & others) {
            best = Kokkos::max(best, known(lowest | sub) + known(set ^ (lowest | sub)));
            if (sub == 0) break;
          }
          known(set) = best;
        });
  }
}

/// best[r] = the largest best partition of any r agents, for r = 1..largest (known: as
/// best_partitions_up_to leaves it): what the agents closed in a search can be worth at most.
template <class ExecSpace, class Memory>
std::vector<double> best_partition_maxima(const ExecSpace& space, const Kokkos::View<const double*, Memory>& known,
                                          int n, int largest,
                                          const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>& binomial) {
  std::vector<double> best(largest + 1, 0.0);
  for (int size = 1; size <= largest; ++size) {
    Kokkos::parallel_reduce(
        "Kollective::IP::best_partition_maxima",
        Range64<ExecSpace>(space, 0, static_cast<std::uint64_t>(subsets::choose(n, size))),
        KOKKOS_LAMBDA(const std::uint64_t r, double& into) {
          into = Kokkos::max(into, known(subsets::unrank_colex(r, size, n, binomial)));
        },
        Kokkos::Max<double>(best[size]));
  }
  space.fence();
  return best;
}

}  // namespace kollective::coalition::Impl

#endif
