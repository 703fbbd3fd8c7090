#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_IMPL_HPP

/// \file CoalitionIP_Impl.hpp
/// IP on an execution space, the same search as the serial reference (CoalitionIP.hpp) spread
/// over threads: the host plans (statistics, subspaces, bounds: CoalitionSubspaces.hpp); each
/// subspace's structures are split into items by their first coalitions (enough levels for
/// `target_items` per subspace), and one thread searches an item's branch depth first. Threads
/// share the incumbent and the table of the best value known for each set of agents (the local
/// branch and bound) through atomic max: a stale read only prunes less. Items run in chunks, best
/// bound first; after each the best item is found by a max-loc reduction, and the search stops at
/// the first subspace whose bound cannot beat the incumbent (the bounds descend). The winning
/// item is searched again on the host, alone, to write its structure (the same sums in the same
/// order give the same value).
/// Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionSubspaces.hpp"
#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
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
    const std::vector<int>& parts = plan.open[k].head;
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

  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t i) const {
    const std::uint64_t item = chunk_begin + i;
    int k = 0;
    for (int high = subspaces; high - k > 1;) {  // the subspace holding the item
      const int middle = (k + high) / 2;
      if (table.first_item(middle) <= item) k = middle; else high = middle;
    }
    double best = -DBL_MAX;
    std::uint64_t placed_nodes = 0;
    search(k, item - table.first_item(k), best, placed_nodes);
    item_best(i) = best;
    if (placed_nodes) Kokkos::atomic_add(&nodes(), placed_nodes);
  }

  /// Places coalition `coalition` at `depth` if the ordering, the bound and the local branch and
  /// bound allow it; returns whether the branch continues.
  KOKKOS_INLINE_FUNCTION bool admit(int k, int depth, std::uint64_t coalition, const std::uint64_t* rest,
                                    const double* value, std::uint64_t* chosen, std::uint64_t& placed_nodes) const {
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
    std::uint64_t rest[ip_max_depth + 1], pick[ip_max_depth], chosen[ip_max_depth];
    double value[ip_max_depth + 1];
    rest[0] = all;
    value[0] = 0;
    for (int d = 0; d < levels; ++d) {  // the item's first coalitions
      const int size = table.parts(k, d), available = Kokkos::popcount(rest[d]);
      const std::uint64_t combinations = binomial(available, size);
      const std::uint64_t coalition =
          deposit(subsets::unrank_colex(index % combinations, size, available, binomial), rest[d]);
      index /= combinations;
      if (!admit(k, d, coalition, rest, value, chosen, placed_nodes)) return;
      value[d + 1] = value[d] + v(coalition);
      rest[d + 1] = rest[d] ^ coalition;
    }
    int depth = levels;
    if (depth == last) {
      chosen[last] = rest[last];
      ++placed_nodes;
      leaf(value[last] + v(rest[last]), best, chosen, last + 1);
      return;
    }
    pick[depth] = (std::uint64_t{1} << table.parts(k, depth)) - 1;
    while (true) {
      if (pick[depth] >> Kokkos::popcount(rest[depth])) {  // every combination tried: back up
        if (depth == levels) return;
        --depth;
      } else {
        const std::uint64_t coalition = deposit(pick[depth], rest[depth]);
        if (admit(k, depth, coalition, rest, value, chosen, placed_nodes)) {
          value[depth + 1] = value[depth] + v(coalition);
          rest[depth + 1] = rest[depth] ^ coalition;
          if (depth + 1 == last) {  // the last coalition is what is left
            chosen[last] = rest[last];
            ++placed_nodes;
            leaf(value[last] + v(rest[last]), best, chosen, last + 1);
          } else {
            ++depth;
            pick[depth] = (std::uint64_t{1} << table.parts(k, depth)) - 1;
            continue;
          }
        }
      }
      const std::uint64_t low = pick[depth] & (~pick[depth] + 1), ripple = pick[depth] + low;
      pick[depth] = ripple | (((pick[depth] ^ ripple) >> 2) / low);  // the next combination (Gosper)
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

/// The statistics of every coalition, in chunks over the host's threads, merged in order.
inline SizeStatistics scan_in_parallel(const Values& values) {
  const std::uint64_t coalitions = std::uint64_t{1} << values.agents;
  const std::uint64_t chunks = std::min<std::uint64_t>(coalitions, 1024);
  std::vector<SizeStatistics> parts(chunks, SizeStatistics(values.agents));
  Kokkos::parallel_for(
      "Kollective::IP::statistics", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, chunks),
      [&](const std::uint64_t c) { parts[c].scan(values, coalitions * c / chunks, coalitions * (c + 1) / chunks); });
  Kokkos::fence();
  for (std::uint64_t c = 1; c < chunks; ++c) parts[0].merge(parts[c]);
  return parts[0];
}

/// The optimum by IP on `space` (double values whatever the solver's precision).
template <class ExecSpace>
Result solve_ip(const ExecSpace& space, const Values& values, const Options& options) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Coalition::IP");
  using Memory = typename ExecSpace::memory_space;
  if (options.communicator.size() > 1) fail("coalition method ip runs on one rank (a shared solve is dp or idp)");
  const int n = values.agents;
  const std::uint64_t coalitions = std::uint64_t{1} << n, all = coalitions - 1;
  constexpr bool host_values = Kokkos::SpaceAccessibility<Memory, Kokkos::HostSpace>::accessible;
  require_memory(memory_kind<Memory>(), static_cast<std::int64_t>(coalitions * 8 * (host_values ? 1 : 2)),
                 "the IP's values and best known partitions of " + std::to_string(n) + " agents");

  const SizeStatistics stats = scan_in_parallel(values);
  const IpPlan plan = plan_subspaces(values, stats);
  Result result;
  result.method = to_string(Method::ip);
  result.value = plan.incumbent;
  result.structure = plan.incumbent_structure;
  if (plan.open.empty()) return result;

  const double target_items = 64.0 * ExecSpace().concurrency();
  const SubspaceTable<Kokkos::HostSpace> host_table = subspace_table(plan, stats, n, target_items);
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host_v(values.v,
                                                                                                      coalitions);
  IpSearch<Memory> search;
  search.v = Kokkos::create_mirror_view_and_copy(Memory(), host_v);
  search.known = Kokkos::View<double*, Memory>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::known"), coalitions);
  Kokkos::deep_copy(space, search.known, search.v);
  search.incumbent = Kokkos::View<double, Memory>("Kollective::IP::incumbent");
  Kokkos::deep_copy(space, search.incumbent, plan.incumbent);
  search.nodes = Kokkos::View<std::uint64_t, Memory>("Kollective::IP::nodes");
  search.binomial = subsets::binomial_table<Memory>(space, n);
  search.table = copy_to<Memory>(host_table);
  search.subspaces = static_cast<int>(plan.open.size());
  search.all = all;
  search.slack = plan.slack;

  // Chunks of items, best bound first, growing while a chunk takes under a tenth of a second.
  const std::uint64_t items = host_table.first_item(plan.open.size());
  std::uint64_t chunk = 1024, next = 0, winner = 0;
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
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 0.1)
      chunk = std::min<std::uint64_t>(chunk * 2, std::uint64_t{1} << 24);
  }
  result.value = best;
  result.nodes = static_cast<std::int64_t>(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), search.nodes)());
  if (found) result.structure = record_item(search, host_table, host_v, winner, best);
  return result;
}

}  // namespace kollective::coalition::Impl

#endif
