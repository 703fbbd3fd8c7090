#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IP_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IP_IMPL_HPP

/// \file CoalitionIP_Impl.hpp
/// IP on an execution space: the serial reference's plan and pruning (CoalitionIP.hpp) spread over
/// threads, started from the best partitions of the small coalitions (ip_dp_size), placing the
/// largest coalitions first and ending a branch once its agents left are that few. The host
/// plans (statistics, subspaces, bounds: CoalitionSubspaces.hpp); the search is a stack of frames,
/// branches left to search (one per open subspace at first, best bound on top). Each launch gives
/// the top frames one thread each; a thread searches depth first for a budget of coalitions and
/// pushes back what it has not searched, so that the frames multiply until they fill the space
/// and no thread holds a launch for long. Threads share the incumbent and the best value known
/// for each set of agents (the local branch and bound) through atomic max. A frame's best
/// structure is written where it beats the incumbent, and the launch's best is read back. The
/// stack grows on the space up to half its free memory; past that its bottom frames wait in host
/// memory until the frames above them are searched.
/// Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIPStart_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionUpload_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/kokkos_ext/Atomics.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::coalition::Impl {

/// The most coalitions in a structure the search holds (one per agent).
constexpr int ip_max_depth = max_agents;

/// Marks the last entry of a recorded structure as agents closed by their best partition (bit 63:
/// no agent's).
constexpr std::uint64_t ip_closed = std::uint64_t{1} << 63;

/// The searches as the kernel reads them: the sizes in the order the search places them (largest
/// first, so that the agents left soon fit a best partition the DP start knows, closed_size; then
/// the closed agents as the last part), and the bound of parts d.. (remaining(k, parts) = 0).
/// Against smallest first, largest first takes about a tenth of the nodes on normal values and
/// ends exponential and gamma quickly; uniform, modified uniform, modified normal and beta, quick
/// either way, take up to 2x more nodes.
template <class Memory>
struct SubspaceTable {
  Kokkos::View<int**, Kokkos::LayoutRight, Memory> parts;
  Kokkos::View<int*, Memory> part_count;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> remaining;
};

template <class Memory, class ExecSpace>
SubspaceTable<Memory> subspace_table(const ExecSpace& space, const std::vector<SearchedSubspace>& searches) {
  const std::size_t count = searches.size();
  const auto host = host_space_for(space);
  SubspaceTable<Kokkos::HostSpace> table{
      Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace>(Kokkos::view_alloc(host, "Kollective::IP::parts"),
                                                                  count, ip_max_depth),
      Kokkos::View<int*, Kokkos::HostSpace>(Kokkos::view_alloc(host, "Kollective::IP::part_count"), count),
      Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>(
          Kokkos::view_alloc(host, "Kollective::IP::remaining"), count, ip_max_depth + 1)};
  host.fence();  // zeroed before the host writes
  for (std::size_t k = 0; k < count; ++k) {
    const SearchedSubspace& search = searches[k];
    const std::size_t placed = search.placed.size();
    table.part_count(k) = static_cast<int>(search.remaining.size()) - 1;
    for (std::size_t d = 0; d < placed; ++d) table.parts(k, d) = search.placed[d];
    if (search.closed > 0) table.parts(k, placed) = search.closed;
    for (std::size_t d = 0; d < search.remaining.size(); ++d) table.remaining(k, d) = search.remaining[d];
  }
  return {Kokkos::create_mirror_view_and_copy(Memory(), table.parts),
          Kokkos::create_mirror_view_and_copy(Memory(), table.part_count),
          Kokkos::create_mirror_view_and_copy(Memory(), table.remaining)};
}

/// A branch left to search: at level `depth` of subspace `subspace`, the coalitions of `rest`
/// with colex ranks [begin, end) among its subsets of that level's size, after placed coalitions
/// worth `value`. Frames are disjoint, so the search needs no other record of what is done.
struct IpFrame {
  std::uint64_t rest, begin, end;
  double value;
  std::uint64_t previous;  ///< the lowest agent of the newest placed coalition (0 at depth 0)
  int subspace, depth;
  std::uint8_t level_of[ip_max_depth];  ///< per placed agent, the level of its coalition
};

/// One thread per frame searches its branch depth first until it has placed `budget` coalitions,
/// then pushes what it has not searched back as frames (levels with siblings left; halves of each
/// when `split`), so that no thread runs much longer than the others and the frames multiply
/// until they fill the space. Threads share the incumbent and ODP-IP's local branch and bound
/// (the best value known per set of agents) through atomic max: a stale read only prunes less.
/// Each frame's best structure that beat the incumbent is written to its row of `structures`.
template <class Memory>
struct IpSearch {
  Kokkos::View<const double*, Memory> v;
  Kokkos::View<double*, Memory> known;  ///< the best value known per set of agents (2^n entries)
  Kokkos::View<double, Memory> incumbent;
  Kokkos::View<const IpFrame*, Memory> frames;
  Kokkos::View<IpFrame*, Memory> pushed;
  Kokkos::View<std::uint64_t, Memory> pushed_count;
  Kokkos::View<double*, Memory> frame_best;
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> structures;
  Kokkos::View<std::uint64_t, Memory> nodes;
  Kokkos::View<int, Memory> overflowed;  ///< a thread found no room in `pushed`
  std::uint64_t budget = 0;
  bool split = false;
  /// `known` holds the best partition of every set of at most this many agents: a branch whose agents
  /// left are that few ends there, with a structure (maybe of another subspace) worth at least as much as
  /// any completion of it; the host writes those agents' partition out (best_partition).
  int closed_size = 0;
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> binomial;
  SubspaceTable<Memory> table;
  std::uint64_t all = 0;
  double slack = 0;

  /// The search's state: the level's coalition, the agents and value before it.
  struct Path {
    std::uint64_t rest[ip_max_depth + 1], coalition[ip_max_depth];
    double value[ip_max_depth + 1];
    std::uint64_t rank;  ///< of coalition[frame depth]
  };

  static KOKKOS_FORCEINLINE_FUNCTION std::uint64_t lowest(std::uint64_t set) { return set & (~set + 1); }

  KOKKOS_INLINE_FUNCTION bool may_beat(double upper) const {
    return upper + slack > kollective::relaxed_load(incumbent.data());
  }

  /// Whether the partial structure on `placed` worth `value`, newest coalition `coalition`, is
  /// beaten by a known partition of the same agents; if not, its value becomes known.
  KOKKOS_INLINE_FUNCTION bool dominated(std::uint64_t placed, double value, std::uint64_t coalition) const {
    if (kollective::relaxed_load(&known(coalition)) > v(coalition) + slack ||
        kollective::relaxed_load(&known(placed)) > value + slack)
      return true;
    kollective::atomic_extremum<true>(&known(placed), value);
    return false;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t i) const {
    frame_best(i) = -DBL_MAX;
    std::uint64_t tried = 0;
    search(frames(i), i, tried);
    Kokkos::atomic_add(&nodes(), tried);
  }

  /// A leaf worth `total`: the incumbent rises, and the frame's row records it if it beat it.
  KOKKOS_INLINE_FUNCTION void leaf(const IpFrame& frame, std::uint64_t row, double total, const Path& path, int last,
                                   bool closed = false) const {
    if (total <= frame_best(row) || total <= kollective::relaxed_load(incumbent.data())) return;
    frame_best(row) = total;
    kollective::atomic_extremum<true>(incumbent.data(), total);
    for (int d = 0; d < frame.depth; ++d) structures(row, d) = 0;
    for (std::uint64_t placed = all ^ frame.rest; placed != 0; placed &= placed - 1) {
      const std::uint64_t agent = lowest(placed);
      structures(row, frame.level_of[Kokkos::countr_zero(agent)]) |= agent;
    }
    for (int d = frame.depth; d < last; ++d) structures(row, d) = path.coalition[d];
    structures(row, last) = path.rest[last] | (closed ? ip_closed : 0);
    if (last + 1 < static_cast<int>(structures.extent(1))) structures(row, last + 1) = 0;
  }

  /// Places `path.coalition[depth]` if the ordering, the bound and the local branch and bound
  /// allow it; returns whether the branch continues.
  KOKKOS_FORCEINLINE_FUNCTION bool admit(int k, int depth, std::uint64_t previous, Path& path) const {
    const std::uint64_t coalition = path.coalition[depth];
    // Equal sizes in a row: the lowest agents increase, so each structure is met once.
    if (previous != 0 && table.parts(k, depth - 1) == table.parts(k, depth) && lowest(coalition) <= previous)
      return false;
    const double with = path.value[depth] + v(coalition);
    if (!may_beat(with + table.remaining(k, depth + 1))) return false;
    if (dominated((all ^ path.rest[depth]) | coalition, with, coalition)) return false;
    path.value[depth + 1] = with;
    path.rest[depth + 1] = path.rest[depth] ^ coalition;
    return true;
  }

  KOKKOS_INLINE_FUNCTION void search(const IpFrame& frame, std::uint64_t row, std::uint64_t& placed) const {
    const int k = frame.subspace, first = frame.depth, last = table.part_count(k) - 1;
    if (frame.begin >= frame.end || !may_beat(frame.value + table.remaining(k, first))) return;
    Path path;
    path.rest[first] = frame.rest;
    path.value[first] = frame.value;
    path.rank = frame.begin;
    path.coalition[first] = subsets::submask(
        subsets::unrank_colex(frame.begin, table.parts(k, first), Kokkos::popcount(frame.rest), binomial), frame.rest);
    int depth = first;
    while (true) {
      if (path.coalition[depth] == 0 || (depth == first && path.rank >= frame.end)) {  // level done: back up
        if (depth == first) return;
        --depth;
      } else if (placed >= budget) {
        push_back(frame, depth, path);
        return;
      } else {
        ++placed;
        const std::uint64_t previous = depth == first ? frame.previous : lowest(path.coalition[depth - 1]);
        if (admit(k, depth, previous, path)) {
          const std::uint64_t left = path.rest[depth + 1];
          if (Kokkos::popcount(left) <= closed_size) {  // no completion beats the best partition of `left`
            leaf(frame, row, path.value[depth + 1] + kollective::relaxed_load(&known(left)), path, depth + 1, true);
          } else if (depth + 1 == last) {  // the last coalition is what is left
            leaf(frame, row, path.value[last] + v(left), path, last);
          } else {
            ++depth;
            path.coalition[depth] = subsets::lowest_members(path.rest[depth], table.parts(k, depth));
            continue;
          }
        }
      }
      path.coalition[depth] = subsets::next_same_size(path.coalition[depth], path.rest[depth]);
      if (depth == first) ++path.rank;
    }
  }

  /// Pushes the frames of what the search from `frame` has not searched: at each level up to
  /// `depth`, the coalitions after the current one (from the current one at `depth`).
  KOKKOS_INLINE_FUNCTION void push_back(const IpFrame& frame, int depth, const Path& path) const {
    const int k = frame.subspace;
    std::uint64_t begin[ip_max_depth], end[ip_max_depth];
    int count = 0;
    for (int d = frame.depth; d <= depth; ++d) {
      const std::uint64_t current =
          d == frame.depth ? path.rank : subsets::rank_colex(path.coalition[d], path.rest[d], binomial);
      begin[d] = current + (d < depth ? 1 : 0);
      end[d] = d == frame.depth ? frame.end : binomial(Kokkos::popcount(path.rest[d]), table.parts(k, d));
      if (begin[d] < end[d]) count += split && end[d] - begin[d] > 1 ? 2 : 1;
    }
    const std::uint64_t base = Kokkos::atomic_fetch_add(&pushed_count(), static_cast<std::uint64_t>(count));
    if (base + count > pushed.extent(0)) {  // the host sizes `pushed` for the most a launch can push
      Kokkos::atomic_store(&overflowed(), 1);
      return;
    }
    std::uint64_t slot = base;
    for (int d = frame.depth; d <= depth; ++d) {
      if (begin[d] >= end[d]) continue;
      IpFrame& out = pushed(slot++);
      out.rest = path.rest[d];
      out.value = path.value[d];
      out.previous = d == frame.depth ? frame.previous : lowest(path.coalition[d - 1]);
      out.subspace = k;
      out.depth = d;
      for (int a = 0; a < ip_max_depth; ++a) out.level_of[a] = frame.level_of[a];
      for (int l = frame.depth; l < d; ++l) {
        for (std::uint64_t members = path.coalition[l]; members != 0; members &= members - 1)
          out.level_of[Kokkos::countr_zero(members)] = static_cast<std::uint8_t>(l);
      }
      out.begin = begin[d];
      out.end = end[d];
      if (split && end[d] - begin[d] > 1) {
        IpFrame& half = pushed(slot++);
        half = out;
        out.end = half.begin = begin[d] + (end[d] - begin[d]) / 2;
      }
    }
  }
};

/// How the search is spread: the coalitions a thread places before it pushes the rest of its
/// branch back, and the frames one launch takes; and the DP start's largest size (0: the space's
/// defaults and ip_dp_size; tests set them small, benchmarks sweep them).
struct IpLaunch {
  std::uint64_t budget = 0, frames = 0;
  int dp_size = 0;
  /// The most frames the stack holds on the space before its bottom ones move to the host (0: as
  /// many as half the space's free memory holds when it grows; tests make it tiny).
  std::uint64_t stack_frames = 0;
};

/// A GPU needs many short frames to stay busy; host threads fewer, longer ones.
template <class ExecSpace>
IpLaunch default_launch(const ExecSpace& space, IpLaunch launch) {
  constexpr bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  const std::uint64_t threads = static_cast<std::uint64_t>(space.concurrency());
  if (launch.budget == 0) launch.budget = host ? 1 << 16 : 1 << 10;  // a GPU's: the fastest of 1024-16384 at n = 24-28
  if (launch.frames == 0) launch.frames = host ? 16 * threads : threads;
  return launch;
}

/// The first frames: one per search, the best bound last (on top of the stack).
inline std::vector<IpFrame> subspace_frames(const std::vector<SearchedSubspace>& searches, int n) {
  std::vector<IpFrame> frames(searches.size());
  for (std::size_t k = 0; k < searches.size(); ++k) {
    IpFrame& frame = frames[searches.size() - 1 - k];
    frame = IpFrame{};
    frame.rest = (std::uint64_t{1} << n) - 1;
    frame.end = static_cast<std::uint64_t>(subsets::choose(n, searches[k].placed.front()));
    frame.subspace = static_cast<int>(k);
  }
  return frames;
}

struct IpBest {
  double value = -DBL_MAX;
  Structure structure;  ///< empty: no structure beat the plan's incumbent
  std::uint64_t nodes = 0;
  bool finished = true;
  double stack_bound = -DBL_MAX;  ///< not finished: the best bound of a branch left (before the slack)
};

/// The best bound of the frames [0, count) of `stack`: no structure they hold is worth more, up
/// to the slack.
template <class ExecSpace, class Memory>
double stack_bound(const ExecSpace& space, const Kokkos::View<IpFrame*, Memory>& stack, std::uint64_t count,
                   const SubspaceTable<Memory>& table) {
  double bound = -DBL_MAX;
  Kokkos::parallel_reduce(
      "Kollective::IP::stack_bound", Range64<ExecSpace>(space, 0, count),
      KOKKOS_LAMBDA(const std::uint64_t i, double& into) {
        into = Kokkos::max(into, stack(i).value + table.remaining(stack(i).subspace, stack(i).depth));
      },
      Kokkos::Max<double>(bound));
  space.fence();
  return bound;
}

/// Takes the launch's best frame if it beat `best`, with the structure its row recorded.
template <class ExecSpace, class Memory>
void record_best(const ExecSpace& space, const IpSearch<Memory>& search, std::uint64_t take, IpBest& best) {
  Kokkos::MaxLoc<double, std::uint64_t>::value_type launch_best;
  const auto frame_best = search.frame_best;
  Kokkos::parallel_reduce(
      "Kollective::IP::best_frame", Range64<ExecSpace>(space, 0, take),
      KOKKOS_LAMBDA(const std::uint64_t i, Kokkos::MaxLoc<double, std::uint64_t>::value_type& into) {
        if (frame_best(i) > into.val) {
          into.val = frame_best(i);
          into.loc = i;
        }
      },
      Kokkos::MaxLoc<double, std::uint64_t>(launch_best));
  space.fence();
  if (!(launch_best.val > best.value)) return;
  best.value = launch_best.val;
  const auto row = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(search.structures, launch_best.loc, Kokkos::ALL));
  best.structure.clear();
  for (std::size_t d = 0; d < row.extent(0) && row(d) != 0; ++d) best.structure.push_back(row(d));
}

using Deadline = std::optional<std::chrono::steady_clock::time_point>;

/// `seconds` after `start`, or none where seconds is 0 (no limit) or past a billion (over 31
/// years; the clock's 64-bit nanoseconds hold about 292).
inline Deadline deadline_after(std::chrono::steady_clock::time_point start, double seconds) {
  if (!(seconds > 0) || seconds > 1e9) return std::nullopt;
  return start +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

/// Seconds from now until `deadline` (negative once passed).
inline double seconds_until(std::chrono::steady_clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
}

/// The earlier of two deadlines (none: no limit).
inline Deadline earlier(const Deadline& a, const Deadline& b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

/// Whether there is a deadline and it has passed.
inline bool passed(const Deadline& deadline) { return deadline && std::chrono::steady_clock::now() > *deadline; }

/// Frames moved off the space, with the best bound among them (stack_bound's).
struct SpilledFrames {
  std::vector<IpFrame> frames;
  double bound = -DBL_MAX;
};

/// The branches left to search: frames [0, count) on the space, the best bound on top, and below
/// them the spilled ones, the newest chunk last.
template <class Memory>
struct IpStack {
  Kokkos::View<IpFrame*, Memory> frames;
  std::uint64_t count = 0;
  std::vector<SpilledFrames> spilled;
  bool empty() const { return count == 0 && spilled.empty(); }
};

/// The most frames the stack may grow to on `Memory`: launch.stack_frames where set, else what
/// half of the free memory holds (a grown stack is copied beside the old one, and IDP's and IP's
/// other allocations need room too).
template <class Memory>
std::uint64_t stack_frames_limit(const IpLaunch& launch) {
  if (launch.stack_frames > 0) return launch.stack_frames;
  return static_cast<std::uint64_t>(available_bytes(memory_kind<Memory>()) / 2) / sizeof(IpFrame);
}

/// Moves the `moved` bottom frames of the stack to the host (with their bound) and the rest down.
template <class ExecSpace, class Memory>
void spill_bottom(const ExecSpace& space, IpStack<Memory>& stack, std::uint64_t moved,
                  const SubspaceTable<Memory>& table) {
  require_memory(MemoryKind::host, static_cast<std::int64_t>(moved * sizeof(IpFrame)),
                 "the coalition IP search's branches that its stack on the device has no room for");
  SpilledFrames chunk;
  chunk.bound = stack_bound(space, stack.frames, moved, table);
  chunk.frames.resize(moved);
  Kokkos::deep_copy(
      space,
      Kokkos::View<IpFrame*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(chunk.frames.data(), moved),
      Kokkos::subview(stack.frames, std::make_pair(std::uint64_t{0}, moved)));
  // Down by `moved` in pieces of at most `moved` frames: no piece overlaps its destination.
  for (std::uint64_t to = 0; to + moved < stack.count; to += moved) {
    const std::uint64_t end = std::min(to + 2 * moved, stack.count);
    Kokkos::deep_copy(space, Kokkos::subview(stack.frames, std::make_pair(to, end - moved)),
                      Kokkos::subview(stack.frames, std::make_pair(to + moved, end)));
  }
  space.fence();
  stack.count -= moved;
  stack.spilled.push_back(std::move(chunk));
}

/// Room on top of the stack for `pushed` frames: it doubles while within stack_frames_limit;
/// past it, its bottom frames go to the host (the top half of the room left free for the next
/// pushes), to come back once the frames above them are searched (bring_back).
template <class ExecSpace, class Memory>
void make_stack_room(const ExecSpace& space, IpStack<Memory>& stack, std::uint64_t pushed,
                     const SubspaceTable<Memory>& table, const IpLaunch& launch) {
  const std::uint64_t needed = stack.count + pushed, extent = stack.frames.extent(0);
  if (needed <= extent) return;
  const std::uint64_t grown = std::min(2 * needed, std::max<std::uint64_t>(extent, stack_frames_limit<Memory>(launch)));
  if (grown >= needed) {
    Kokkos::resize(stack.frames, grown);
    return;
  }
  if (pushed > extent)
    fail("coalition IP: the search's stack holds ", extent, " branches and a launch left ", pushed,
         ", with no memory free to grow it (", format_bytes(static_cast<double>(pushed * sizeof(IpFrame))),
         " needed); free memory on the device or give IP fewer agents");
  const std::uint64_t kept = std::min(stack.count, (extent - pushed) / 2);
  spill_bottom(space, stack, stack.count - kept, table);
}

/// Where the space's stack is empty, puts the newest spilled chunk back on it.
template <class ExecSpace, class Memory>
void bring_back(const ExecSpace& space, IpStack<Memory>& stack) {
  if (stack.count > 0 || stack.spilled.empty()) return;
  SpilledFrames& chunk = stack.spilled.back();
  const std::uint64_t size = chunk.frames.size();
  Kokkos::deep_copy(space, Kokkos::subview(stack.frames, std::make_pair(std::uint64_t{0}, size)),
                    Kokkos::View<const IpFrame*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        chunk.frames.data(), size));
  space.fence();
  stack.count = size;
  stack.spilled.pop_back();
}

/// The stack at first, on the space: one frame per search (subspace_frames), with room for a launch's pushes.
template <class ExecSpace>
IpStack<typename ExecSpace::memory_space> first_stack(const ExecSpace& space,
                                                      const std::vector<SearchedSubspace>& searches, int n,
                                                      const IpLaunch& launch) {
  const std::vector<IpFrame> first = subspace_frames(searches, n);
  IpStack<typename ExecSpace::memory_space> stack;
  stack.frames = decltype(stack.frames)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::stack"),
                                        std::max<std::size_t>(first.size(), 2 * launch.frames));
  Kokkos::deep_copy(space, Kokkos::subview(stack.frames, std::make_pair(std::size_t{0}, first.size())),
                    Kokkos::View<const IpFrame*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        first.data(), first.size()));
  stack.count = first.size();
  return stack;
}

/// Makes the room a launch of `search` writes in (its pushed frames, each frame's best and its
/// structure) and sets its budget, once: the searches stay the same from one of IP's searches to
/// the next.
template <class ExecSpace, class Memory>
void make_launch_room(const ExecSpace& space, IpSearch<Memory>& search, const std::vector<SearchedSubspace>& searches,
                      const IpLaunch& launch) {
  std::size_t most_parts = 0;
  for (const SearchedSubspace& searched : searches) most_parts = std::max(most_parts, searched.placed.size() + 1);
  const std::uint64_t per_launch = launch.frames;
  search.budget = launch.budget;
  // A thread pushes at most two frames per level it stands on below its last part.
  search.pushed = Kokkos::View<IpFrame*, Memory>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::pushed"), per_launch * 2 * most_parts);
  search.pushed_count = Kokkos::View<std::uint64_t, Memory>(Kokkos::view_alloc(space, "Kollective::IP::pushed_count"));
  search.frame_best = Kokkos::View<double*, Memory>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::frame_best"), per_launch);
  search.structures = Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::IP::structures"), per_launch, most_parts + 1);
}

/// Runs the frames of `stack` as a stack (`search` with its launch room made): each launch
/// searches the top ones and pushes back what they left, until none is left or the deadline has
/// passed after a launch (every branch left then in the stack, to go on from). A structure is
/// recorded only where it beats `incumbent`.
template <class ExecSpace, class Memory>
IpBest run_frames(const ExecSpace& space, IpSearch<Memory>& search, double incumbent, IpStack<Memory>& stack,
                  const IpLaunch& launch, const Deadline& deadline) {
  const std::uint64_t per_launch = launch.frames;
  IpBest best;
  best.value = incumbent;
  std::uint64_t& count = stack.count;
  while (!stack.empty()) {
    kollective::Impl::interruption_point();
    bring_back(space, stack);
    const std::uint64_t take = std::min(per_launch, count);
    search.frames = Kokkos::subview(stack.frames, std::make_pair(count - take, count));
    search.split = count < per_launch;
    Kokkos::deep_copy(space, search.pushed_count, std::uint64_t{0});
    Kokkos::parallel_for("Kollective::IP::search",
                         Range64<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>(space, 0, take), search);
    record_best(space, search, take, best);
    std::uint64_t pushed = 0;
    int overflowed = 0;
    Kokkos::deep_copy(space, pushed, search.pushed_count);
    Kokkos::deep_copy(space, overflowed, search.overflowed);
    space.fence();
    if (overflowed) fail("coalition IP: a launch pushed more frames than room was made for (internal error)");
    count -= take;
    make_stack_room(space, stack, pushed, search.table, launch);
    Kokkos::deep_copy(space, Kokkos::subview(stack.frames, std::make_pair(count, count + pushed)),
                      Kokkos::subview(search.pushed, std::make_pair(std::uint64_t{0}, pushed)));
    count += pushed;
    if (!stack.empty() && passed(deadline)) {
      best.finished = false;
      best.stack_bound = stack_bound(space, stack.frames, count, search.table);
      for (const SpilledFrames& chunk : stack.spilled) best.stack_bound = std::max(best.stack_bound, chunk.bound);
      break;
    }
  }
  Kokkos::deep_copy(space, best.nodes, search.nodes);
  space.fence();
  return best;
}

}  // namespace kollective::coalition::Impl

#endif
