#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_SOLVER_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_SOLVER_IMPL_HPP

/// \file CoalitionIPSolver_Impl.hpp
/// IP on an execution space as a solver that can search more than once: its start (the values on
/// the space, the statistics, the plan, the DP start), then searches until a deadline, each going
/// on from the branches, the incumbent and the best known partitions the last one left; between
/// searches IDP's table can close the branches at more agents (auto's rounds, ODP-IP's exchange
/// of the DP's finished sizes). Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"
#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIPStart_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIP_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionUpload_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"

namespace kollective::coalition::Impl {

/// known(c) = max(known(c), table(c)). A named functor, as ConvertValues (CoalitionUpload_Impl.hpp).
template <class Memory>
struct RaiseKnown {
  Kokkos::View<double*, Memory> known;
  Kokkos::View<const double*, Memory> table;
  KOKKOS_FUNCTION void operator()(const std::uint64_t c) const { known(c) = Kokkos::max(known(c), table(c)); }
};

/// gathered(i) = v(the i-th subset of `set`).
template <class Memory>
struct GatherSubsets {
  Kokkos::View<double*, Memory> gathered;
  Kokkos::View<const double*, Memory> v;
  std::uint64_t set;
  KOKKOS_FUNCTION void operator()(const std::int64_t i) const {
    gathered(i) = v(subsets::submask(static_cast<std::uint64_t>(i), set));
  }
};

/// IP's state between searches on `space`: the values (read from `on_device` where given, else
/// copied there), the incumbent, the best value known per set of agents, and the searches.
template <class ExecSpace>
class IpSolver {
 public:
  using Memory = typename ExecSpace::memory_space;

  IpSolver(const ExecSpace& space, const Values& values, const IpLaunch& launch,
           const Kokkos::View<const double*, Memory>& on_device = {})
      : space_(space), values_(values), launch_(default_launch(space, launch)) {
    Kokkos::Profiling::ScopedRegion region("Kollective::Coalition::IP::start");
    const WallTimer timer;
    const int n = values.agents;
    const std::uint64_t coalitions = std::uint64_t{1} << n;
    constexpr bool host_values = Kokkos::SpaceAccessibility<Memory, Kokkos::HostSpace>::accessible;
    const bool copy_values = !host_values && on_device.data() == nullptr;
    require_memory(memory_kind<Memory>(), static_cast<std::int64_t>(coalitions * 8 * (copy_values ? 2 : 1)),
                   "the IP's values and best known partitions of " + std::to_string(n) + " agents");
    search_.v = on_device.data() != nullptr ? on_device : values_on(space, values);
    search_.binomial = subsets::binomial_table<Memory>(space, n);
    search_.all = coalitions - 1;
    const SizeStatistics stats = [&] {
      if constexpr (host_values)
        return scan_in_parallel(space, values);  // space runs on the host
      else
        return statistics_on(space, search_.v, n, search_.binomial);
    }();
    const IpPlan plan = plan_subspaces(values, stats);
    search_.slack = plan.slack;
    result_.method = to_string(Method::ip);
    result_.value = plan.incumbent;
    result_.structure = plan.incumbent_structure;
    result_.exact = plan.open.empty();
    result_.upper_bound = result_.exact ? result_.value : INFINITY;
    if (!result_.exact) {
      search_.known = Kokkos::View<double*, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::known"), coalitions);
      Kokkos::deep_copy(space, search_.known, search_.v);
      search_.incumbent = Kokkos::View<double, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::incumbent"));
      Kokkos::deep_copy(space, search_.incumbent, plan.incumbent);
      search_.nodes = Kokkos::View<std::uint64_t, Memory>(Kokkos::view_alloc(space, "Kollective::IP::nodes"));
      search_.overflowed = Kokkos::View<int, Memory>(Kokkos::view_alloc(space, "Kollective::IP::overflowed"));
      search_.closed_size = launch.dp_size > 0 ? Kokkos::min(launch.dp_size, n) : ip_dp_size(n);
      best_partitions_up_to(space, search_.known, n, search_.closed_size, search_.binomial);
      const std::vector<SearchedSubspace> searches =
          searched_subspaces(plan, stats, search_.closed_size,
                             best_partition_maxima(space, Kokkos::View<const double*, Memory>(search_.known), n,
                                                   search_.closed_size, search_.binomial));
      search_.table = subspace_table<Memory>(space, searches);
      make_launch_room(space, search_, searches, launch_);
      stack_ = first_stack(space, searches, n, launch_);
    }
    space.fence();
    result_.ip_s = result_.ip_start_s = timer.seconds();
  }

  /// The result so far: the best structure found, and exact once a search has ended (else the
  /// tightest bound any search left).
  const Result& result() const { return result_; }
  /// The most agents a search closes by their best partition.
  int closed_size() const { return search_.closed_size; }

  /// Searches the branches left until none is left or `deadline` has passed (after a launch).
  const Result& search(const Deadline& deadline) {
    if (result_.exact) return result_;
    Kokkos::Profiling::ScopedRegion region("Kollective::Coalition::IP::search");
    const WallTimer timer;
    const IpBest best = run_frames(space_, search_, result_.value, stack_, launch_, deadline);
    result_.nodes = static_cast<std::int64_t>(best.nodes);
    if (!best.structure.empty()) take_structure(best);
    result_.exact = best.finished;
    result_.upper_bound =
        best.finished ? result_.value
                      : Kokkos::min(result_.upper_bound, Kokkos::max(result_.value, best.stack_bound + search_.slack));
    space_.fence();
    result_.ip_s += timer.seconds();
    return result_;
  }

  /// Takes IDP's `table` after a layer, whose entries hold the best partition of every coalition
  /// of at most `closed_size` agents and a partition's value (at least v) for every other: the best
  /// known values rise to it, and the search goes on from the branches left, closing them at
  /// `closed_size` agents (their bounds stay those of the first plan: still bounds). Going on
  /// rather than planning again keeps the work done: rounds planned anew end values that IP alone
  /// ends quickly (modified uniform, exponential) only late in IDP's run, ten times later or more.
  void close_with(const Kokkos::View<const double*, Memory>& table, int closed_size) {
    if (result_.exact || closed_size <= search_.closed_size) return;
    const WallTimer timer;
    Kokkos::parallel_for(
        "Kollective::IP::known_from_table",
        Range64<ExecSpace>(space_, 0, static_cast<std::int64_t>(search_.known.extent(0))),  // 2^32 and more
        RaiseKnown<Memory>{search_.known, table});
    search_.closed_size = closed_size;
    space_.fence();
    result_.ip_s += timer.seconds();
  }

 private:
  /// The best frame's structure, a closed part written out by its best partition.
  void take_structure(const IpBest& best) {
    result_.value = best.value;
    result_.structure.clear();
    for (const std::uint64_t coalition : best.structure) {
      const Structure parts = coalition & ip_closed ? best_partition_of(coalition ^ ip_closed) : Structure{coalition};
      result_.structure.insert(result_.structure.end(), parts.begin(), parts.end());
    }
    std::sort(result_.structure.begin(), result_.structure.end());
  }

  /// The best partition of `set` (a closed part: few agents), from the host's values, or from the
  /// values of its subsets gathered on the device where only the device holds them.
  Structure best_partition_of(std::uint64_t set) const {
    if (values_.v) return best_partition(values_, set);
    const std::uint64_t subsets_count = std::uint64_t{1} << Kokkos::popcount(set);
    Kokkos::View<double*, Memory> gathered(
        Kokkos::view_alloc(space_, Kokkos::WithoutInitializing, "Kollective::IP::closed_values"), subsets_count);
    Kokkos::parallel_for("Kollective::IP::gather_closed",
                         Range64<ExecSpace>(space_, 0, static_cast<std::int64_t>(subsets_count)),
                         GatherSubsets<Memory>{gathered, search_.v, set});
    std::vector<double> compact(subsets_count);
    Kokkos::deep_copy(space_, Kokkos::View<double*, Kokkos::HostSpace>(compact.data(), subsets_count), gathered);
    space_.fence("Kollective::IP: the closed part's values on the host");
    return best_partition(compact, set);
  }

  ExecSpace space_;
  Values values_;  ///< v null where only the device holds the values
  IpLaunch launch_;
  IpSearch<Memory> search_;
  IpStack<Memory> stack_;
  Result result_;
};

/// The optimum by IP on `space` (double values whatever the solver's precision), or, once
/// options.time_limit has passed, the best structure found with a bound on the optimum. The
/// values are read from `on_device` (values_on) where given, else copied there first.
template <class ExecSpace>
Result solve_ip(const ExecSpace& space, const Values& values, const Options& options, IpLaunch launch = {},
                const Kokkos::View<const double*, typename ExecSpace::memory_space>& on_device = {}) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Coalition::IP");
  const Deadline deadline = deadline_after(std::chrono::steady_clock::now(), options.time_limit);
  if (options.communicator.size() > 1) fail("coalition method ip runs on one rank (a shared solve is dp or idp)");
  IpSolver<ExecSpace> solver(space, values, launch, on_device);
  return solver.search(deadline);
}

}  // namespace kollective::coalition::Impl

#endif
