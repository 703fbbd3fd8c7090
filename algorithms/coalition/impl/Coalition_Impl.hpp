#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IMPL_HPP

/// \file Coalition_Impl.hpp
/// One team per coalition of the current size (colex unranking); its threads split the
/// coalition's 2^(c-1) - 1 splits into contiguous chunks, walking submasks incrementally, and
/// reduce the best sum. The split {C', C \ C'} is counted once by putting C's lowest agent in C'.
/// Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Progress.hpp"
#include "core/subsets/Subsets.hpp"

namespace kollective::coalition::Impl {

/// The i-th submask of `mask` in increasing order (bit deposit of i into the bits of mask).
KOKKOS_INLINE_FUNCTION std::uint64_t submask(std::uint64_t i, std::uint64_t mask) {
  std::uint64_t result = 0;
  for (std::uint64_t rest = mask; rest != 0 && i != 0; rest &= rest - 1, i >>= 1) {
    if (i & 1) result |= rest & (~rest + 1);
  }
  return result;
}

using subsets::popcount;

KOKKOS_INLINE_FUNCTION bool allowed(bool idp, int n, int c, int a) { return !idp || idp_allows(n, c, a); }

/// Best split sum of coalition `set` (size c) over split indices [begin, end): the split with
/// index i puts the lowest agent plus the i-th submask of the others in C'.
template <class Value, class View>
KOKKOS_INLINE_FUNCTION Value best_split(const View& f, std::uint64_t set, int n, int c, bool idp, std::uint64_t begin,
                                        std::uint64_t end, std::uint64_t* where = nullptr) {
  const std::uint64_t lowest = set & (~set + 1), others = set ^ lowest;
  Value best = Kokkos::reduction_identity<Value>::max();
  std::uint64_t sub = submask(begin, others);
  for (std::uint64_t i = begin; i < end; ++i, sub = (sub - others) & others) {
    const std::uint64_t part = lowest | sub;
    if (!allowed(idp, n, c, popcount(part))) continue;
    const Value sum = f(part) + f(set ^ part);
    if (sum > best) {
      best = sum;
      if (where) *where = part;
    }
  }
  return best;
}

template <class Value, class ExecSpace>
Result solve(const ExecSpace& space, const Game& game, const Options& options) {
  using Memory = typename ExecSpace::memory_space;
  const int n = game.agents;
  if (n < 1 || n > max_agents) fail("coalition structure generation: ", n, " agents outside 1..", max_agents);
  const std::uint64_t coalitions = std::uint64_t{1} << n;
  require_device_memory(static_cast<std::int64_t>(coalitions) * static_cast<std::int64_t>(sizeof(Value)),
                        "the coalition value table of " + std::to_string(n) + " agents");
  const bool idp = options.method == Method::idp;

  Kokkos::View<Value*, Memory> f(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Coalition::f"), coalitions);
  {
    auto host = Kokkos::create_mirror_view(f);
    for (std::uint64_t mask = 0; mask < coalitions; ++mask) host(mask) = static_cast<Value>(game.values[mask]);
    Kokkos::deep_copy(space, f, host);
  }
  const auto binomial = subsets::binomial_table<Memory>(space, n);
  const auto binomial_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), binomial);

  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  Progress progress("Coalition " + std::string(to_string(options.method)) + " (n=" + std::to_string(n) + ")", n);
  for (int c = 2; c <= n; ++c) {
    bool any = false;  // IDP skips sizes with no allowed split
    for (int a = 1; a < c; ++a) any = any || allowed(idp, n, c, a);
    if (!any) continue;
    const auto count = static_cast<std::int64_t>(binomial_host(n, c));
    const std::uint64_t splits = (std::uint64_t{1} << (c - 1)) - 1;
    Kokkos::parallel_for(
        "Kollective::Coalition::layer", Policy(space, count, Kokkos::AUTO), KOKKOS_LAMBDA(const Member& team) {
          const std::uint64_t set = subsets::unrank_colex(static_cast<std::uint64_t>(team.league_rank()), c, n, binomial);
          const std::uint64_t chunks = splits < static_cast<std::uint64_t>(team.team_size()) ? splits : team.team_size();
          Value best = Kokkos::reduction_identity<Value>::max();
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, static_cast<std::int64_t>(chunks)),
              [&](const std::int64_t chunk, Value& local) {
                const std::uint64_t begin = splits * chunk / chunks, end = splits * (chunk + 1) / chunks;
                const Value value = best_split<Value>(f, set, n, c, idp, begin, end);
                if (value > local) local = value;
              },
              Kokkos::Max<Value>(best));
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            if (best > f(set)) f(set) = best;
          });
        });
    space.fence();
    progress.update(c);
  }
  progress.finish();

  // Recovery: a coalition whose f equals v is a block; otherwise find an allowed split achieving f.
  Result result;
  result.method = to_string(options.method);
  result.splits = split_count(n, options.method);
  auto value_of = [&](std::uint64_t set) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(f, set))();
  };
  const std::uint64_t all = coalitions - 1;
  result.value = static_cast<double>(value_of(all));
  std::vector<std::uint64_t> pending = {all};
  while (!pending.empty()) {
    const std::uint64_t set = pending.back();
    pending.pop_back();
    const Value target = value_of(set);
    if (target == static_cast<Value>(game.values[set])) {
      result.structure.push_back(set);
      continue;
    }
    const int c = popcount(set);
    Kokkos::View<std::uint64_t, Memory> found("Kollective::Coalition::found");
    const std::uint64_t splits = (std::uint64_t{1} << (c - 1)) - 1;
    Kokkos::parallel_for(
        "Kollective::Coalition::recover", Kokkos::RangePolicy<ExecSpace>(space, 0, 1), KOKKOS_LAMBDA(const int) {
          std::uint64_t where = 0;
          best_split<Value>(f, set, n, c, idp, 0, splits, &where);
          found() = where;
        });
    const std::uint64_t part = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), found)();
    if (part == 0 || value_of(part) + value_of(set ^ part) != target) {
      fail("coalition structure recovery failed for coalition ", set, " (internal error)");
    }
    pending.push_back(part);
    pending.push_back(set ^ part);
  }
  std::sort(result.structure.begin(), result.structure.end());
  return result;
}

}  // namespace kollective::coalition::Impl

#endif
