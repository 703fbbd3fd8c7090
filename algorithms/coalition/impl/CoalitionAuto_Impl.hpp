#ifndef KOLLECTIVE_ALGORITHMS_COALITION_AUTO_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_AUTO_IMPL_HPP

/// \file CoalitionAuto_Impl.hpp
/// method auto, an ODP-IP hybrid on one space: IP for a share of IDP's estimated time, then IDP,
/// with IP going on between IDP's layers, closing its branches at the agents whose best partitions IDP
/// has finished; on one copy of the values. With a time limit, IP alone where IDP would not fit
/// in it. Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIPSolver_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIP_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionUpload_Impl.hpp"
#include "kollective/core/Memory.hpp"

namespace kollective::coalition::Impl {

/// Called by IDP after each layer but the last with the layer's number h and its table (double
/// precision; empty in float): every coalition with at most h agents among the high ones holds
/// its final value there, and every coalition of at most h <= n / 2 agents its best partition.
/// Returns whether IDP stops (a result not exact).
template <class Memory>
using LayerHook = std::function<bool(int layer, const Kokkos::View<const double*, Memory>& table)>;

/// The table as LayerHook sees it: itself in double, empty in float.
template <class Value, class Memory>
Kokkos::View<const double*, Memory> table_in_double(const Kokkos::View<Value*, Memory>& f) {
  if constexpr (std::is_same_v<Value, double>) {
    return f;
  } else {
    return {};
  }
}

/// IDP's splits per second on `space`, to give auto's IP a share of IDP's time.
template <class ExecSpace>
double idp_splits_per_second(const ExecSpace& space) {
  return idp_splits_throughput.per_second(!Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible,
                                          space.concurrency());
}

/// auto: IP for options.ip_share of IDP's estimated time (at least options.ip_min_s, or the whole
/// estimate where shorter), then IDP (`solve_idp`, given IDP's
/// options, the values on the device, which IP and IDP share: one copy, and a LayerHook). After
/// each layer h up to n / 2, whose table then holds the best partition of every coalition of at
/// most h agents (IDP evaluates every split of those), IP takes the table and goes on with the
/// branches it left, closing them at h agents, for options.ip_round_share of IDP's time so far (a
/// share's time over 1e9 s is no limit: deadline_after); the search that ends stops IDP. Rounds
/// need IDP in double and room for IP's best-known table beside IDP's; else IDP runs alone. IDP
/// alone where the solve is shared (IP runs on one rank). With options.time_limit: IP for the
/// whole limit where the first share and IDP's estimate exceed it; else IDP stops after a layer
/// once the limit has passed, and IP's best structure and bound are the answer. `launch` spreads
/// IP's search (tests make it tiny).
template <class Value, class ExecSpace, class SolveIdp>
Result solve_automatic(const ExecSpace& space, const Values& values, const Options& options, SolveIdp&& solve_idp,
                       const IpLaunch& launch = {},
                       const Kokkos::View<const double*, typename ExecSpace::memory_space>& given = {}) {
  using Memory = typename ExecSpace::memory_space;
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  Options idp = options;
  idp.method = Method::idp;
  idp.time_limit = 0;
  if (options.communicator.size() > 1) return solve_idp(idp, given, LayerHook<Memory>());
  if (!Kokkos::SpaceAccessibility<Memory, Kokkos::HostSpace>::accessible && given.data() == nullptr) {
    require_memory(memory_kind<Memory>(), static_cast<std::int64_t>(values.size() * 8),
                   "the values of " + std::to_string(values.agents) + " agents, shared by IP and IDP");
  }
  // Read in place where they are the host's or the caller's on the device; else copied once.
  const Kokkos::View<const double*, Memory> on_device = given.data() ? given : values_on(space, values);
  const auto uploaded = Clock::now();  // IP's share starts here: the copy serves IDP too
  const double idp_estimate = split_count(values.agents, Method::idp) / idp_splits_per_second(space);
  const Deadline deadline = deadline_after(started, options.time_limit);
  std::optional<IpSolver<ExecSpace>> ip(std::in_place, space, values, launch, on_device);
  if (deadline && idp_estimate * 1.1 > seconds_until(*deadline)) return ip->search(deadline);  // anytime
  const double first_seconds = std::max(idp_estimate * options.ip_share, std::min(options.ip_min_s, idp_estimate));
  const Deadline first_share = first_seconds > 0 ? deadline_after(uploaded, first_seconds) : uploaded;
  Result searched = ip->search(earlier(deadline, first_share));  // IP's answer so far
  if (searched.exact) return searched;
  const int n = values.agents;
  const std::uint64_t table_bytes = (std::uint64_t{1} << n) * sizeof(Value);
  if (sizeof(Value) != sizeof(double) || ip->closed_size() >= n / 2 ||
      static_cast<double>(available_bytes(memory_kind<Memory>())) < 1.1 * static_cast<double>(table_bytes))
    ip.reset();  // no rounds: IDP alone, with the room
  const auto idp_started = Clock::now();
  double round_seconds = 0;  // IP's, since IDP started
  const LayerHook<Memory> after_layer = [&](int layer, const Kokkos::View<const double*, Memory>& table) {
    if (passed(deadline)) return true;
    if (ip && layer > n / 2) ip.reset();  // no round is left: IP's table makes room
    if (!ip || table.data() == nullptr || layer <= ip->closed_size()) return false;
    const auto round_started = Clock::now();
    const double idp_seconds = std::chrono::duration<double>(round_started - idp_started).count() - round_seconds;
    const double budget = options.ip_round_share * idp_seconds - round_seconds;
    if (budget <= 0) return false;
    ip->close_with(table, layer);
    searched = ip->search(earlier(deadline, deadline_after(round_started, budget)));
    round_seconds += std::chrono::duration<double>(Clock::now() - round_started).count();
    return searched.exact || passed(deadline);
  };
  Result result = solve_idp(idp, on_device, after_layer);
  if (!result.exact) return searched;  // IP ended it, or the limit passed: IP's answer
  result.nodes = searched.nodes;
  result.ip_s = searched.ip_s;
  result.ip_start_s = searched.ip_start_s;
  return result;
}

}  // namespace kollective::coalition::Impl

#endif
