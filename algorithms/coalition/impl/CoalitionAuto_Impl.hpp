#ifndef KOLLECTIVE_ALGORITHMS_COALITION_AUTO_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_AUTO_IMPL_HPP

/// \file CoalitionAuto_Impl.hpp
/// method auto: IP for a tenth of IDP's estimated time, then IDP, on one copy of the values; with a
/// time limit, IP alone where IDP would not fit in it. Do not include directly: include
/// algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <string>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIP_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionUpload_Impl.hpp"
#include "kollective/core/Memory.hpp"

namespace kollective::coalition::Impl {

/// IDP's splits per second on `space`, to give auto's IP a tenth of IDP's time: on the host 4e8 a
/// thread (the 2-core CPU, double, n = 22-24: 2.4 ns a split on one thread); on a GPU 5e11, what
/// one H200 reaches in double at n = 29 (3.4e11 at 25, 4.1e11 at 28), so that IP and its start stay
/// within about a tenth of IDP's real time there.
template <class ExecSpace>
double idp_splits_per_second(const ExecSpace& space) {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 4e8 * space.concurrency() : 5e11;
}

/// auto: IP for a tenth of IDP's estimated time, then IDP (`solve_idp`, given IDP's options, the
/// values on the device, which IP and IDP share: one copy, and a deadline); IDP alone where the
/// solve is shared (IP runs on one rank). With options.time_limit: IP for the whole limit where
/// the share and IDP's estimate exceed it; else IDP stops between layers once the limit has passed
/// (solve_idp's result not exact), and IP's best structure and bound are the answer. `launch`
/// spreads IP's search (tests make it tiny).
template <class ExecSpace, class SolveIdp>
Result solve_automatic(const ExecSpace& space, const Values& values, const Options& options, SolveIdp&& solve_idp,
                       const IpLaunch& launch = {}) {
  using Memory = typename ExecSpace::memory_space;
  const auto started = std::chrono::steady_clock::now();
  Options idp = options;
  idp.method = Method::idp;
  idp.time_limit = 0;
  if (options.communicator.size() > 1) return solve_idp(idp, Kokkos::View<const double*, Memory>(), Deadline());
  if (!Kokkos::SpaceAccessibility<Memory, Kokkos::HostSpace>::accessible) {  // else read in place
    require_memory(memory_kind<Memory>(), static_cast<std::int64_t>(values.size() * 8),
                   "the values of " + std::to_string(values.agents) + " agents, shared by IP and IDP");
  }
  const Kokkos::View<const double*, Memory> on_device = values_on(space, values);
  const double idp_estimate = split_count(values.agents, Method::idp) / idp_splits_per_second(space);
  const Deadline deadline = deadline_after(started, options.time_limit);
  Options ip = options;
  ip.time_limit = idp_estimate / 10;
  if (deadline && idp_estimate * 1.1 > seconds_until(*deadline)) {  // anytime: IP until the limit
    ip.time_limit = Kokkos::max(seconds_until(*deadline), 1e-9);
    return solve_ip(space, values, ip, launch, on_device);
  }
  const Result first = solve_ip(space, values, ip, launch, on_device);
  if (first.exact) return first;
  Result result = solve_idp(idp, on_device, deadline);
  if (!result.exact) return first;  // IDP passed the limit: IP's best structure and its bound
  result.nodes = first.nodes;
  result.ip_seconds = first.ip_seconds;
  result.ip_start_seconds = first.ip_start_seconds;
  return result;
}

}  // namespace kollective::coalition::Impl

#endif
