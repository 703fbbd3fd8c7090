#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_IMPL_HPP

/// \file CoalitionIP_Impl.hpp
/// IP on an execution space, the same search as the serial reference (CoalitionIP.hpp) spread
/// over threads, started from the best partitions of the small coalitions (ip_dp_size): the host plans (statistics,
/// subspaces, bounds: CoalitionSubspaces.hpp); each subspace's structures are split into items by their first
/// coalitions (enough levels for `target_items` per subspace), and one thread searches an item's branch depth first.
/// Threads share the incumbent and the table of the best value known for each set of agents (the local branch and
/// bound) through atomic max: a stale read only prunes less. Items run in chunks, best bound first; after each the best
/// item is found by a max-loc reduction, and the search stops at the first subspace whose bound cannot beat the
/// incumbent (the bounds descend). The winning item is searched again on the host, alone, to write its structure (the
/// same sums in the same order give the same value). Do not include directly: include
/// algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionSubspaces.hpp"
#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIPStart_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/kokkos_ext/Atomics.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::coalition::Impl {

/// The most coalitions in a structure the search holds (one per agent).
constexpr int ip_max_depth = max_agents;

/// The open subspaces as the kernel reads them: parts ascending, the bound of parts d.. (with
/// remaining(k, parts) = 0), the levels that make its items, and the first item of each.
template <class Memory>
struct SubspaceTable {
  Kokkos::View<int**, Kokkos::LayoutRight, Memory> parts;
  Kokkos::View<int*, Memory> part_count, levels;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> remaining;
  Kokkos::View<std::uint64_t*, Memory> first_item;  ///< open + 1 entries, the last the total
};

/// The host table of `plan.open`: each subspace's first levels until it has `target_items` items.
inline SubspaceTable<Kokkos::HostSpace> subspace_table(const IpPlan& plan, const SizeStatistics& stats, int n,
                                                       double target_items) {
  const std::size_t count = plan.open.size();
  SubspaceTable<Kokkos::HostSpace> table{
      Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace>("Kollective::IP::parts", count, ip_max_depth),
      Kokkos::View<int*, Kokkos::HostSpace>("Kollective::IP::part_count", count),
      Kokkos::View<int*, Kokkos::HostSpace>("Kollective::IP::levels", count),
      Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>("Kollective::IP::remaining", count,
                                                                     ip_max_depth + 1),
      Kokkos::View<std::uint64_t*, Kokkos::HostSpace>("Kollective::IP::first_item", count + 1)};
  for (std::size_t k = 0; k < count; ++k) {
    const std::vector<int>& parts = plan.open[k].parts;
    const int last = static_cast<int>(parts.size()) - 1;
    table.part_count(k) = static_cast<int>(parts.size());
    for (int d = 0; d <= last; ++d) {
      table.parts(k, d) = parts[d];
      table.remaining(k, d) = stats.bound(parts, static_cast<std::size_t>(d));
    }
    table.remaining(k, last + 1) = 0;
    double items = 1;
    int levels = 0, left = n;
    while (levels < last && (levels == 0 || items < target_items)) {
      items *= subsets::choose(left, parts[levels]);
      left -= parts[levels++];
    }
    table.levels(k) = levels;
    table.first_item(k + 1) = table.first_item(k) + static_cast<std::uint64_t>(items);
  }
  return table;
}

template <class Memory>
SubspaceTable<Memory> copy_to(const SubspaceTable<Kokkos::HostSpace>& host) {
  return {Kokkos::create_mirror_view_and_copy(Memory(), host.parts),
          Kokkos::create_mirror_view_and_copy(Memory(), host.part_count),
          Kokkos::create_mirror_view_and_copy(Memory(), host.levels),
          Kokkos::create_mirror_view_and_copy(Memory(), host.remaining),
          Kokkos::create_mirror_view_and_copy(Memory(), host.first_item)};
}

/// One thread per item: the item's first coalitions from its index, then its branch depth first.
/// With `record`, the first structure worth at least `target` is written to `structure`.
template <class Memory>
struct IpSearch {
  Kokkos::View<const double*, Memory> v;
  Kokkos::View<double*, Memory> known;  ///< empty: no local branch and bound
  Kokkos::View<double, Memory> incumbent;
  Kokkos::View<double*, Memory> item_best;  ///< per item of the chunk
  Kokkos::View<std::uint64_t, Memory> nodes;
  Kokkos::View<int, Memory> stopped;  ///< set once `nodes` passes node_limit: every item gives up
  std::uint64_t node_limit = 0;       ///< 0: none
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> binomial;
  SubspaceTable<Memory> table;
  int subspaces = 0;
  std::uint64_t all = 0, chunk_begin = 0;
  double slack = 0;
  bool record = false;
  double target = 0;
  Kokkos::View<std::uint64_t*, Memory> structure;  ///< record: the coalitions, then 0

  /// The `pick`-th members of `set` (bit deposit of an index mask).
  KOKKOS_INLINE_FUNCTION static std::uint64_t deposit(std::uint64_t pick, std::uint64_t set) {
    std::uint64_t result = 0;
    for (; pick != 0 && set != 0; set &= set - 1, pick >>= 1) {
      if (pick & 1) result |= set & (~set + 1);
    }
    return result;
  }

  /// The `size` lowest members of `set` (0 when it has fewer).
  KOKKOS_INLINE_FUNCTION static std::uint64_t first_subset(std::uint64_t set, int size) {
    std::uint64_t result = 0;
    for (; size > 0 && set != 0; --size, set &= set - 1) result |= set & (~set + 1);
    return size == 0 ? result : 0;
  }

  /// The next subset of `set` after `subset` with as many members, in increasing order (0 after
  /// the last): Gosper's hack on the members of `set`. Adding the lowest member carries through
  /// the run of members above it (the bits outside `set` are ones, so the carry skips them); all
  /// but one of the run go back to the lowest members of `set`.
  KOKKOS_INLINE_FUNCTION static std::uint64_t next_subset(std::uint64_t subset, std::uint64_t set) {
    const std::uint64_t raised = ((subset | ~set) + (subset & (~subset + 1))) & set;
    if (raised == 0) return 0;
    std::uint64_t result = raised, free = set;
    for (std::uint64_t run = (subset & ~raised) & ((subset & ~raised) - 1); run != 0; run &= run - 1) {
      result |= free & (~free + 1);
      free &= free - 1;
    }
    return result;
  }

  KOKKOS_INLINE_FUNCTION bool may_beat(double upper) const {
    return upper + slack > kollective::relaxed_load(incumbent.data());
  }

  /// Whether the partial structure on `placed` worth `value`, newest coalition `coalition`, is
  /// beaten by a known partition of the same agents; if not, its value becomes known.
  KOKKOS_INLINE_FUNCTION bool dominated(std::uint64_t placed, double value, std::uint64_t coalition) const {
    if (known.extent(0) == 0) return false;
    if (kollective::relaxed_load(&known(coalition)) > v(coalition) + slack ||
        kollective::relaxed_load(&known(placed)) > value + slack)
      return true;
    kollective::atomic_extremum<true>(&known(placed), value);
    return false;
  }

  KOKKOS_INLINE_FUNCTION void leaf(double total, double& best, const std::uint64_t* chosen, int count) const {
    if (total <= best) return;
    best = total;
    kollective::atomic_extremum<true>(incumbent.data(), total);
    if (record && total >= target && structure(0) == 0) {
      for (int d = 0; d < count; ++d) structure(d) = chosen[d];
    }
  }

  /// Adds this thread's nodes to the count every 4096; true when the node limit has been passed.
  KOKKOS_INLINE_FUNCTION bool spend(std::uint64_t& pending, bool now = false) const {
    if (pending < 4096 && !now) return false;
    const std::uint64_t after = Kokkos::atomic_fetch_add(&nodes(), pending) + pending;
    pending = 0;
    if (node_limit == 0) return false;
    if (after >= node_limit) Kokkos::atomic_store(&stopped(), 1);
    return kollective::relaxed_load(stopped.data()) != 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t i) const {
    item_best(i) = -DBL_MAX;
    if (node_limit != 0 && kollective::relaxed_load(stopped.data()) != 0) return;
    const std::uint64_t item = chunk_begin + i;
    int k = 0;
    for (int high = subspaces; high - k > 1;) {  // the subspace holding the item
      const int middle = (k + high) / 2;
      if (table.first_item(middle) <= item)
        k = middle;
      else
        high = middle;
    }
    double best = -DBL_MAX;
    std::uint64_t placed_nodes = 0;
    search(k, item - table.first_item(k), best, placed_nodes);
    item_best(i) = best;
    spend(placed_nodes, true);
  }

  /// Places coalition `coalition` at `depth` if the ordering, the bound and the local branch and
  /// bound allow it; returns whether the branch continues.
  KOKKOS_FORCEINLINE_FUNCTION bool admit(int k, int depth, std::uint64_t coalition, const std::uint64_t* rest,
                                         const double* value, std::uint64_t* chosen,
                                         std::uint64_t& placed_nodes) const {
    // Equal sizes in a row: the lowest agents increase, so each structure is met once.
    if (depth > 0 && table.parts(k, depth - 1) == table.parts(k, depth) &&
        (coalition & (~coalition + 1)) <= (chosen[depth - 1] & (~chosen[depth - 1] + 1)))
      return false;
    ++placed_nodes;
    const double with = value[depth] + v(coalition);
    if (!may_beat(with + table.remaining(k, depth + 1))) return false;
    if (dominated((all ^ rest[depth]) | coalition, with, coalition)) return false;
    chosen[depth] = coalition;
    return true;
  }

  KOKKOS_INLINE_FUNCTION void search(int k, std::uint64_t index, double& best, std::uint64_t& placed_nodes) const {
    if (!may_beat(table.remaining(k, 0))) return;
    const int last = table.part_count(k) - 1, levels = table.levels(k);
    std::uint64_t rest[ip_max_depth + 1], coalition[ip_max_depth], chosen[ip_max_depth];
    double value[ip_max_depth + 1];
    rest[0] = all;
    value[0] = 0;
    for (int d = 0; d < levels; ++d) {  // the item's first coalitions
      const int size = table.parts(k, d), available = Kokkos::popcount(rest[d]);
      const std::uint64_t combinations = binomial(available, size);
      coalition[d] = deposit(subsets::unrank_colex(index % combinations, size, available, binomial), rest[d]);
      index /= combinations;
      if (!admit(k, d, coalition[d], rest, value, chosen, placed_nodes)) return;
      value[d + 1] = value[d] + v(coalition[d]);
      rest[d + 1] = rest[d] ^ coalition[d];
    }
    int depth = levels;
    if (depth == last) {
      chosen[last] = rest[last];
      ++placed_nodes;
      leaf(value[last] + v(rest[last]), best, chosen, last + 1);
      return;
    }
    coalition[depth] = first_subset(rest[depth], table.parts(k, depth));
    while (true) {
      if (spend(placed_nodes)) return;
      if (coalition[depth] == 0) {  // every coalition tried: back up
        if (depth == levels) return;
        --depth;
      } else if (admit(k, depth, coalition[depth], rest, value, chosen, placed_nodes)) {
        value[depth + 1] = value[depth] + v(coalition[depth]);
        rest[depth + 1] = rest[depth] ^ coalition[depth];
        if (depth + 1 == last) {  // the last coalition is what is left
          chosen[last] = rest[last];
          ++placed_nodes;
          leaf(value[last] + v(rest[last]), best, chosen, last + 1);
        } else {
          ++depth;
          coalition[depth] = first_subset(rest[depth], table.parts(k, depth));
          continue;
        }
      }
      coalition[depth] = next_subset(coalition[depth], rest[depth]);
    }
  }
};

/// The structure of item `item`, worth `value`: its branch searched again on the host, alone and
/// without the local branch and bound (a known value may have risen to the winner's since).
template <class Memory>
Structure record_item(const IpSearch<Memory>& device, const SubspaceTable<Kokkos::HostSpace>& table,
                      const Kokkos::View<const double*, Kokkos::HostSpace> v, std::uint64_t item, double value) {
  IpSearch<Kokkos::HostSpace> search;
  search.v = v;
  search.incumbent = Kokkos::View<double, Kokkos::HostSpace>("Kollective::IP::incumbent");
  search.incumbent() = value;
  search.item_best = Kokkos::View<double*, Kokkos::HostSpace>("Kollective::IP::item_best", 1);
  search.nodes = Kokkos::View<std::uint64_t, Kokkos::HostSpace>("Kollective::IP::nodes");
  search.stopped = Kokkos::View<int, Kokkos::HostSpace>("Kollective::IP::stopped");
  search.binomial = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device.binomial);
  search.table = table;
  search.subspaces = device.subspaces;
  search.all = device.all;
  search.slack = device.slack;
  search.record = true;
  search.target = value;
  search.structure = Kokkos::View<std::uint64_t*, Kokkos::HostSpace>("Kollective::IP::structure", ip_max_depth + 1);
  search.chunk_begin = item;
  search(0);
  Structure structure;
  for (int d = 0; search.structure(d) != 0; ++d) structure.push_back(search.structure(d));
  if (structure.empty()) fail("coalition IP: the best item's structure was not found again (internal error)");
  std::sort(structure.begin(), structure.end());
  return structure;
}

/// IDP splits one IP node costs as much time as on the host: 18 (on the 2-core CPU, one thread:
/// 37 ns a node at n = 22, 2.0 ns an IDP split). `auto` gives IP a tenth of IDP's time by it.
constexpr double ip_node_cost_in_splits = 18.0;

struct IpOutcome {
  Result result;
  bool finished = true;  ///< false: stopped at the node limit, `result` the best structure found
};

/// The optimum by IP on `space` (double values whatever the solver's precision), or with
/// `node_limit` > 0 the best structure found when every thread gave up, about that many nodes on.
template <class ExecSpace>
IpOutcome solve_ip(const ExecSpace& space, const Values& values, const Options& options, double node_limit = 0) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Coalition::IP");
  using Memory = typename ExecSpace::memory_space;
  if (options.communicator.size() > 1) fail("coalition method ip runs on one rank (a shared solve is dp or idp)");
  const int n = values.agents;
  const std::uint64_t coalitions = std::uint64_t{1} << n, all = coalitions - 1;
  constexpr bool host_values = Kokkos::SpaceAccessibility<Memory, Kokkos::HostSpace>::accessible;
  require_memory(memory_kind<Memory>(), static_cast<std::int64_t>(coalitions * 8 * (host_values ? 1 : 2)),
                 "the IP's values and best known partitions of " + std::to_string(n) + " agents");

  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host_v(values.v,
                                                                                                       coalitions);
  IpSearch<Memory> search;
  search.v = Kokkos::create_mirror_view_and_copy(Memory(), host_v);
  search.binomial = subsets::binomial_table<Memory>(space, n);
  const SizeStatistics stats =
      host_values ? scan_in_parallel(values) : statistics_on(space, search.v, n, search.binomial);
  const IpPlan plan = plan_subspaces(values, stats);
  IpOutcome outcome;
  Result& result = outcome.result;
  result.method = to_string(Method::ip);
  result.value = plan.incumbent;
  result.structure = plan.incumbent_structure;
  if (plan.open.empty()) return outcome;

  const double target_items = 64.0 * ExecSpace().concurrency();
  const SubspaceTable<Kokkos::HostSpace> host_table = subspace_table(plan, stats, n, target_items);
  search.known = Kokkos::View<double*, Memory>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::known"), coalitions);
  Kokkos::deep_copy(space, search.known, search.v);
  search.incumbent = Kokkos::View<double, Memory>("Kollective::IP::incumbent");
  Kokkos::deep_copy(space, search.incumbent, plan.incumbent);
  search.nodes = Kokkos::View<std::uint64_t, Memory>("Kollective::IP::nodes");
  search.stopped = Kokkos::View<int, Memory>("Kollective::IP::stopped");
  search.node_limit = static_cast<std::uint64_t>(node_limit);
  best_partitions_up_to(space, search.known, n, ip_dp_size(n), search.binomial);
  search.table = copy_to<Memory>(host_table);
  search.subspaces = static_cast<int>(plan.open.size());
  search.all = all;
  search.slack = plan.slack;

  // Chunks of items, best bound first, growing while a chunk takes under a tenth of a second.
  const std::uint64_t items = host_table.first_item(plan.open.size());
  std::uint64_t chunk = std::max<std::uint64_t>(1024, 4 * static_cast<std::uint64_t>(ExecSpace().concurrency()));
  std::uint64_t next = 0, winner = 0, nodes = 0;
  double best = plan.incumbent;
  bool found = false;
  std::size_t subspace = 0;
  while (next < items) {
    while (subspace < plan.open.size() && host_table.first_item(subspace + 1) <= next) ++subspace;
    if (!may_beat(plan.open[subspace].upper, best, plan.slack)) break;  // nor can any after it
    const std::uint64_t count = std::min(chunk, items - next);
    if (search.item_best.extent(0) < count)
      search.item_best = Kokkos::View<double*, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::item_best"), count);
    search.chunk_begin = next;
    const auto started = std::chrono::steady_clock::now();
    Kokkos::parallel_for("Kollective::IP::search",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>(space, 0, count), search);
    Kokkos::MaxLoc<double, std::uint64_t>::value_type chunk_best;
    const auto item_best = search.item_best;
    Kokkos::parallel_reduce(
        "Kollective::IP::best_item", Kokkos::RangePolicy<ExecSpace>(space, 0, count),
        KOKKOS_LAMBDA(const std::uint64_t i, Kokkos::MaxLoc<double, std::uint64_t>::value_type& into) {
          if (item_best(i) > into.val) {
            into.val = item_best(i);
            into.loc = i;
          }
        },
        Kokkos::MaxLoc<double, std::uint64_t>(chunk_best));
    space.fence();
    if (chunk_best.val > best) {
      best = chunk_best.val;
      winner = next + chunk_best.loc;
      found = true;
    }
    next += count;
    Kokkos::deep_copy(nodes, search.nodes);
    int stopped = 0;
    Kokkos::deep_copy(stopped, search.stopped);
    if (stopped) {
      outcome.finished = false;
      break;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 0.1)
      chunk = std::min<std::uint64_t>(chunk * 2, std::uint64_t{1} << 24);
  }
  result.nodes = static_cast<std::int64_t>(nodes);
  if (found && outcome.finished) {  // else the plan's incumbent stands for the unfinished search
    result.value = best;
    result.structure = record_item(search, host_table, host_v, winner, best);
  }
  return outcome;
}

/// auto: IP for a tenth of IDP's time, then IDP (`solve_idp`, given IDP's options); IDP alone
/// where shared (IP runs on one rank) and on a GPU, where IP does not pay yet (one H200, n = 28:
/// IDP 10.3 s, auto 17.2 s on uniform, 280 s on modified uniform, whose items, most pruned at once,
/// take thousands of launches).
template <class ExecSpace, class SolveIdp>
Result solve_automatic(const ExecSpace& space, const Values& values, const Options& options, SolveIdp&& solve_idp) {
  Options idp = options;
  idp.method = Method::idp;
  if (!Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible || options.communicator.size() > 1)
    return solve_idp(idp);
  const IpOutcome ip =
      solve_ip(space, values, options, split_count(values.agents, Method::idp) / 10 / ip_node_cost_in_splits);
  if (ip.finished) return ip.result;
  Result result = solve_idp(idp);
  result.nodes = ip.result.nodes;
  return result;
}

}  // namespace kollective::coalition::Impl

#endif
