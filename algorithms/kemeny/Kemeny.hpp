#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_HPP

/// \file Kemeny.hpp
/// Kemeny rank aggregation: exact subset DP on the device, Condorcet decomposition, bounds and
/// heuristics for what is too large to solve exactly, and the `auto` strategy combining them.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <type_traits>

#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/algorithms/kemeny/impl/Kemeny_Impl.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::kemeny {

/// Fails unless this rank's share of the subset DP of n alternatives, shared by the ranks of
/// `communicator` (options.communicator), fits in the default execution space's memory: names
/// the bytes, and how many ranks would fit. `of` names the input (" of ...").
inline void require_shared_dp_memory(int n, const comm::Communicator& communicator, int distance_bytes,
                                     const std::string& of) {
  const Impl::Layout layout = Impl::layout(n, communicator.size(), communicator.rank());
  if (layout.rank >= 0) {
    Impl::require_rank_memory(memory_kind<Kokkos::DefaultExecutionSpace::memory_space>(), layout, distance_bytes, of);
  }
}

/// Exact Kemeny by the subset DP on the whole profile (no decomposition).
template <class ExecSpace>
Result solve_dp(const ExecSpace& space, const Counts& o, const Options& options = {}) {
  validate(options);
  preferences::check_counts(o, "kemeny::solve_dp", true);
  Workspace<typename ExecSpace::memory_space> workspace;
  Result result = Impl::solve_dp(space, o, options, workspace);
  check_result(o, result);
  return result;
}

/// solve() (below), with the subset DP's buffers taken from `workspace` and left there for the
/// next solve (Workspace): for many elections in a row. Every rank of a shared DP passes its
/// workspace alike. Every solve checks its result (check_result).
template <class ExecSpace>
Result solve(const ExecSpace& space, const Counts& o, const Options& options,
             Workspace<typename ExecSpace::memory_space>& workspace) {
  validate(options);
  preferences::check_counts(o, "kemeny::solve", true);
  Result result = Impl::solve(space, o, options, workspace);
  check_result(o, result);
  return result;
}

/// Solves with options.method: `enumeration` (the seed's exhaustive search over n!, n <= 16) or
/// `dp` on the whole profile; `heuristic` (bounds only); `auto`:
/// Condorcet components, each by the DP when it fits in device memory, else by the heuristic.
template <class ExecSpace>
Result solve(const ExecSpace& space, const Counts& o, const Options& options = {}) {
  Workspace<typename ExecSpace::memory_space> workspace;
  return solve(space, o, options, workspace);
}

/// solve() on the caller's doubled counts: an n x n View of 2 d[i][j] (as schulze::solve takes
/// them: unsigned integers of at most 32 bits, any layout and memory space, const allowed),
/// copied to the host (the solver's bounds and search run there; the DP on `space`).
template <class ExecSpace, class DoubledView, class = std::enable_if_t<Kokkos::is_view<DoubledView>::value>>
Result solve(const ExecSpace& space, const DoubledView& doubled, const Options& options = {}) {
  return solve(space, preferences::counts_from_view<ExecSpace>(doubled, "kemeny::solve"), options);
}

/// Whether verify has an independent method for an exact result of `method` on n alternatives.
inline bool can_verify(int n, Method method) { return n <= enumeration_verify_max || method == Method::enumeration; }

/// Checks an exact result against an independent method: brute force for n <= 9, else the
/// subset DP for enumeration results and the enumeration for the others (n <= 12). Returns the
/// method it compared with, or "" when no check applies (an inexact result, or a larger n);
/// fails on any difference (compare_optima). The shape of every algorithm's verify: (input,
/// options, result), the execution space of the re-solve first.
template <class ExecSpace>
std::string verify(const ExecSpace& space, const Counts& o, const Options& options, const Result& result) {
  if (!result.exact) return "";
  IndependentOptima other;
  if (o.alternatives <= 9) {
    BruteForceResult brute = brute_force(o);
    other = {"brute force", brute.distance, brute.optima.size(), std::move(brute.optima)};
  } else if (result.method == "enumeration" || o.alternatives <= enumeration_verify_max) {
    Options second = without_auto_settings(options);  // the second method refuses them
    second.method = result.method == "enumeration" ? Method::dp : Method::enumeration;
    Result found = solve(space, o, second);
    std::sort(found.optima.begin(), found.optima.end());
    other = {to_string(second.method), found.distance, found.count, std::move(found.optima)};
  } else {
    return "";
  }
  compare_optima(result, other, options.list_limit);
  return other.method;
}

}  // namespace kollective::kemeny

#endif
