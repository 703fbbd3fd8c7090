#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_SOLVE_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_SOLVE_IMPL_HPP

/// \file SchulzeSolve_Impl.hpp
/// A Schulze solve over a RowLayout: link strengths of the rank's rows, the strongest paths, the
/// beaten counts (each pair compared in both directions, so ranks trade the blocks that hold
/// their rows' columns) and, on request, the whole path matrix on every rank. One rank alone runs
/// the same code with no collectives.
/// Do not include directly: include algorithms/schulze/Schulze.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/algorithms/schulze/impl/Schulze_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/Workspace.hpp"
#include "kollective/core/comm/ViewCollectives.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::schulze::Impl {

/// Both directions of each pair (doubled counts) for a rank's rows, from the whole matrix: a
/// caller's View of any layout and unsigned type, read in place.
template <class DoubledView>
struct WholeCounts {
  DoubledView d;
  KOKKOS_INLINE_FUNCTION std::uint32_t forward(std::int64_t i, std::int64_t j) const { return d(i, j); }
  KOKKOS_INLINE_FUNCTION std::uint32_t backward(std::int64_t i, std::int64_t j) const { return d(j, i); }
};

/// The same from the rank's rows only (preferences::PairwiseRows).
template <class MemorySpace>
struct RowCounts {
  preferences::PairwiseRows<MemorySpace> rows;
  KOKKOS_INLINE_FUNCTION std::uint32_t forward(std::int64_t i, std::int64_t j) const {
    return rows.forward(i - rows.first, j);
  }
  KOKKOS_INLINE_FUNCTION std::uint32_t backward(std::int64_t i, std::int64_t j) const {
    return rows.backward(i - rows.first, j);
  }
};

/// p[i][j] under a rule, from d[i][j] (forward) and d[j][i] (backward).
KOKKOS_INLINE_FUNCTION std::uint32_t link_strength(std::uint32_t forward, std::uint32_t backward, bool margin) {
  return forward > backward ? (margin ? forward - backward : forward) : 0u;
}

/// Largest link strength (doubled units) over every rank's rows; decides the strength width.
template <class ExecSpace, class Counts>
std::uint32_t max_link_strength(const ExecSpace& space, const RowLayout& layout, const Counts& counts, LinkRule rule) {
  const std::int64_t first = layout.first_row(layout.rank), rows = layout.real_rows(layout.rank), n = layout.n;
  const bool margin = rule == LinkRule::margin;
  std::uint32_t largest = 0;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  if (rows > 0) {
    Kokkos::parallel_reduce(
        "Kollective::Schulze::max_link_strength", Policy(space, {first, 0}, {first + rows, n}, {16, 16}),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j, std::uint32_t& best) {
          const std::uint32_t strength = link_strength(counts.forward(i, j), counts.backward(i, j), margin);
          if (strength > best) best = strength;
        },
        Kokkos::Max<std::uint32_t>(largest));
    space.fence();
  }
  if (!layout.shared) return largest;
  std::vector<std::int64_t> most{largest};
  layout.communicator.allreduce_max(most);
  return static_cast<std::uint32_t>(most[0]);
}

/// Device bytes rank r needs: its path rows and, shared, the received pivot rows and the blocks
/// traded for the beaten counts.
inline std::int64_t rank_bytes(const RowLayout& layout, int r, std::int64_t strength_bytes) {
  const std::int64_t size = layout.padded(), own = layout.padded_rows(r);
  std::int64_t cells = checked_mul(own, size, "Schulze path rows");
  if (layout.shared && layout.ranks > 1) {
    std::int64_t widest = 0;
    for (int other = 0; other < layout.ranks; ++other) widest = std::max(widest, layout.padded_rows(other));
    cells += tile * size + checked_mul(2 * own, widest, "Schulze traded blocks");
  }
  return checked_mul(cells, strength_bytes, "Schulze path rows") + 8 * own;
}

/// Fails unless this rank's part (plus `extra_bytes`, as for the pairwise counts) fits; the
/// message names the rank's share and how many ranks would hold it.
inline void require_memory(MemoryKind memory, const RowLayout& layout, std::int64_t strength_bytes,
                           std::int64_t extra_bytes, const std::string& of) {
  const std::int64_t bytes = rank_bytes(layout, layout.rank, strength_bytes) + extra_bytes;
  std::string what = "the Schulze path matrix of " + std::to_string(layout.n) + " alternatives" + of;
  if (layout.shared && layout.ranks > 1) what = "rank " + std::to_string(layout.rank) + "'s rows of " + what;
  const std::int64_t available = available_bytes(memory);
  if (bytes > available) {
    for (int ranks = layout.ranks + 1; ranks <= 4096; ++ranks) {
      // The rank with the most rows, which shared holds both directions of its pairwise rows.
      const RowLayout wider = spread(layout.n, ranks - 1, ranks);
      const std::int64_t counts = extra_bytes > 0 ? 8 * wider.padded_rows(ranks - 1) * layout.n : 0;
      if (rank_bytes(wider, ranks - 1, strength_bytes) + counts <= available) {
        what += " (distribute: solve over about " + std::to_string(ranks) + " ranks like this one would fit)";
        break;
      }
    }
  }
  kollective::require_memory(memory, bytes, what);
}

/// Runs a check that may fail: shared, on every rank, and every rank fails with the first failing
/// rank's message (so none waits in a collective for a rank that stopped); alone, here.
template <class Check>
void check_on_ranks(const RowLayout& layout, const Check& check) {
  if (!layout.shared) return check();
  layout.communicator.on_every_rank([&] {
    check();
    return 0;
  });
}

/// require_memory before any allocation of a solve.
inline void check_memory(MemoryKind memory, const RowLayout& layout, std::int64_t strength_bytes) {
  check_on_ranks(layout, [&] { require_memory(memory, layout, strength_bytes, 0, ""); });
}

/// Writes this rank's padded rows of link strengths into `rows` (padding rows and columns are 0).
template <class Strength, class ExecSpace, class Counts>
void fill_link_strengths(const ExecSpace& space, const RowLayout& layout, const Counts& counts, LinkRule rule,
                         const PathView<Strength, typename ExecSpace::memory_space>& rows) {
  const std::int64_t n = layout.n, size = layout.padded(), first = layout.first_tile(layout.rank) * tile;
  const bool margin = rule == LinkRule::margin;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "Kollective::Schulze::link_strengths",
      Policy(space, {0, 0}, {static_cast<std::int64_t>(rows.extent(0)), size}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t r, const std::int64_t j) {
        const std::int64_t i = first + r;
        const bool real = i < n && j < n && i != j;
        rows(r, j) =
            real ? static_cast<Strength>(link_strength(counts.forward(i, j), counts.backward(i, j), margin)) : 0;
      });
}

/// This rank's padded rows of link strengths, newly allocated.
template <class Strength, class ExecSpace, class Counts>
PathView<Strength, typename ExecSpace::memory_space> link_strengths(const ExecSpace& space, const RowLayout& layout,
                                                                    const Counts& counts, LinkRule rule) {
  PathView<Strength, typename ExecSpace::memory_space> rows(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Schulze::paths"),
      layout.padded_rows(layout.rank), layout.padded());
  fill_link_strengths<Strength>(space, layout, counts, rule, rows);
  return rows;
}

/// The path rows and the received pivot rows of a solve in `workspace` (Workspace.hpp): reused
/// where it holds a solve of the same shape, else freed, checked against memory and allocated.
template <class Strength, class MemorySpace>
std::pair<PathView<Strength, MemorySpace>, PathView<Strength, MemorySpace>> rows_in(const RowLayout& layout,
                                                                                    Workspace<MemorySpace>& workspace) {
  const bool trades = layout.shared && layout.ranks > 1;
  const std::vector<std::int64_t> shape = {layout.n, static_cast<std::int64_t>(sizeof(Strength)), layout.ranks,
                                           layout.rank, trades};
  const std::int64_t rows = layout.padded_rows(layout.rank), size = layout.padded();
  if (!workspace.holds(shape)) {
    workspace.release();  // before the memory check, which then sees its bytes free
    check_memory(memory_kind<MemorySpace>(), layout, sizeof(Strength));
    workspace.adopt(shape);
  }
  workspace.reserve({static_cast<std::size_t>(rows * size * sizeof(Strength)),
                     static_cast<std::size_t>(trades ? tile * size * sizeof(Strength) : 0)});
  const auto path_rows = workspace.template segment<Strength>(0);
  const auto pivot_rows = workspace.template segment<Strength>(1);
  return {PathView<Strength, MemorySpace>(path_rows.data(), rows, size),
          trades ? PathView<Strength, MemorySpace>(pivot_rows.data(), tile, size) : PathView<Strength, MemorySpace>()};
}

/// Adds, for each of this rank's rows i, the j of a column block with p[i][j] > p[j][i] (low 32
/// bits of tally(i)) and with p[j][i] > p[i][j] (high 32 bits): p[i][j] = rows(i, column0 + j),
/// p[j][i] = theirs(j, offset + i).
template <class ExecSpace, class Paths, class Tally>
void tally_block(const ExecSpace& space, const Paths& rows, std::int64_t column0, const Paths& theirs,
                 std::int64_t offset, std::int64_t columns, const Tally& tally) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  Kokkos::parallel_for(
      "Kollective::Schulze::tally_block", Policy(space, static_cast<int>(rows.extent(0)), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Member& team) {
        const std::int64_t i = team.league_rank();
        std::int64_t both = 0;  // one reduction: no second team reduction to fence from the first
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, columns),
            [&](const std::int64_t j, std::int64_t& sum) {
              const auto own = rows(i, column0 + j), other = theirs(j, offset + i);
              sum += (own > other ? 1 : 0) + (other > own ? std::int64_t{1} << 32 : 0);
            },
            both);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { tally(i) += both; });
      });
}

/// Beaten counts and winners from the finished rows of every rank. Round t sends this rank's
/// columns of rank (rank + t)'s rows to it and receives rank (rank - t)'s columns of its own rows.
template <class ExecSpace, class Strength, class MemorySpace>
void summarize(const ExecSpace& space, const RowLayout& layout, const PathView<Strength, MemorySpace>& rows,
               Result& result) {
  const int rank = layout.rank, ranks = layout.shared ? layout.ranks : 1;
  const std::int64_t own = layout.padded_rows(rank), own_column0 = layout.first_tile(rank) * tile;
  Kokkos::View<std::int64_t*, MemorySpace> tally(Kokkos::view_alloc(space, "Kollective::Schulze::tally"), own);
  tally_block(space, rows, own_column0, rows, own_column0, own, tally);
  for (int t = 1; t < ranks; ++t) {
    const int to = (rank + t) % ranks, from = (rank - t + ranks) % ranks;
    const std::int64_t to_rows = layout.padded_rows(to), to_column0 = layout.first_tile(to) * tile;
    PathView<Strength, MemorySpace> sent(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Schulze::sent"), own, to_rows);
    PathView<Strength, MemorySpace> received(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Schulze::received"),
        layout.padded_rows(from), own);
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
    Kokkos::parallel_for(
        "Kollective::Schulze::pack_block", Policy(space, {0, 0}, {own, to_rows}, {16, 16}),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { sent(i, j) = rows(i, to_column0 + j); });
    result.exchange_s += time_fenced(space, [&] {
      comm::exchange_parts(space, layout.communicator, {{sent.data(), sent.size() * sizeof(Strength), to}},
                           {{received.data(), received.size() * sizeof(Strength), from}});
    });
    tally_block(space, rows, layout.first_tile(from) * tile, received, 0, layout.padded_rows(from), tally);
    space.fence();  // the blocks die at the end of the round
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tally);
  const std::int64_t n = layout.n, first = layout.first_row(rank);
  std::vector<std::int64_t> wins_and_losses(2 * n, 0);
  for (std::int64_t r = 0; r < layout.real_rows(rank); ++r) {
    wins_and_losses[first + r] = host(r) & 0xffffffff;
    wins_and_losses[n + first + r] = host(r) >> 32;
  }
  if (ranks > 1) layout.communicator.allreduce_sum(wins_and_losses);  // each entry comes from one rank
  result.beaten.assign(wins_and_losses.begin(), wins_and_losses.begin() + n);
  result.winners.clear();
  for (std::int64_t i = 0; i < n; ++i) {
    if (wins_and_losses[n + i] == 0) result.winners.push_back(static_cast<int>(i));
  }
  result.ranking = rank_by_beaten(result.beaten);
}

/// Fails, before the solve, unless gather_paths can collect the whole path matrix on every rank
/// (every rank checks; each fails with the first failing rank's message).
inline void check_gather(const RowLayout& layout) {
  const std::int64_t n = layout.n;
  const bool shared = layout.shared && layout.ranks > 1;
  check_on_ranks(layout, [&] {
    require_host_memory(checked_mul(checked_mul(n, n, "Schulze paths"), 8, "Schulze paths"),
                        "the strongest paths of " + std::to_string(n) + " alternatives on the host");
    if (shared && n * n * 4 > (std::int64_t{1} << 30)) {
      fail("the strongest paths of more than 16384 alternatives cannot be gathered from the ranks (", n,
           " here), and verifying or writing them needs them");
    }
  });
}

/// The whole n x n path matrix on every rank (result.paths); check_gather first.
template <class ExecSpace, class Strength, class MemorySpace>
void gather_paths(const ExecSpace& space, const RowLayout& layout, const PathView<Strength, MemorySpace>& rows,
                  Result& result) {
  const std::int64_t n = layout.n, own = layout.real_rows(layout.rank);
  const bool shared = layout.shared && layout.ranks > 1;
  // Copy the padded rows whole: a strided subview cannot be copied across memory spaces.
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
  std::vector<std::uint32_t> mine(static_cast<std::size_t>(own * n));
  for (std::int64_t r = 0; r < own; ++r) {
    for (std::int64_t j = 0; j < n; ++j) mine[r * n + j] = host(r, j);
  }
  result.paths = shared ? layout.communicator.allgather_values(mine) : std::move(mine);  // rows in rank order
}

/// No paths out: the solve keeps them on the device only (or in result.paths, keep_paths).
struct NoPathsOut {
  template <class ExecSpace, class Strength, class MemorySpace>
  void operator()(const ExecSpace&, const RowLayout&, const PathView<Strength, MemorySpace>&, const Result&) const {}
};

/// The strongest paths into the caller's n x n View `paths`: alone, copied on the device; shared,
/// from the rows gathered on the host (result.paths, which solve_with then fills).
template <class PathsView>
struct PathsOut {
  PathsView paths;
  template <class ExecSpace, class Strength, class MemorySpace>
  void operator()(const ExecSpace& space, const RowLayout& layout, const PathView<Strength, MemorySpace>& rows,
                  const Result& result) const {
    const std::int64_t n = layout.n;
    if (layout.shared && layout.ranks > 1) {
      const auto host = Kokkos::create_mirror_view(paths);
      for (std::int64_t i = 0; i < n; ++i) {
        for (std::int64_t j = 0; j < n; ++j) host(i, j) = result.paths[i * n + j];
      }
      Kokkos::deep_copy(space, paths, host);
      space.fence();  // the host copy goes out of scope
      return;
    }
    const PathsView out = paths;
    Kokkos::parallel_for(
        "Kollective::Schulze::paths_out", Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space, {0, 0}, {n, n}),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { out(i, j) = rows(i, j); });
  }
  bool needs_gather(const RowLayout& layout) const { return layout.shared && layout.ranks > 1; }
};

template <class Out>
bool gathers(const Out& out, const RowLayout& layout) {
  if constexpr (std::is_same_v<Out, NoPathsOut>) {
    return false;
  } else {
    return out.needs_gather(layout);
  }
}

/// The solve with strengths of `Strength`; its buffers in `workspace`, or allocated for it alone
/// (null).
template <class Strength, class ExecSpace, class Counts, class Out>
Result solve_with(const ExecSpace& space, const RowLayout& layout, const Counts& counts, const Options& options,
                  const Out& out, Workspace<typename ExecSpace::memory_space>* workspace) {
  using Memory = typename ExecSpace::memory_space;
  Kokkos::Profiling::ScopedRegion region("Kollective::Schulze::solve");
  const bool gather = options.keep_paths || gathers(out, layout);
  if (gather) check_gather(layout);
  PathView<Strength, Memory> rows, received;
  if (workspace) {
    std::tie(rows, received) = rows_in<Strength>(layout, *workspace);
    fill_link_strengths<Strength>(space, layout, counts, options.rule, rows);
  } else {
    check_memory(memory_kind<Memory>(), layout, sizeof(Strength));
    rows = link_strengths<Strength>(space, layout, counts, options.rule);
  }
  Result result;
  result.alternatives = static_cast<int>(layout.n);
  result.strength_bits = 8 * sizeof(Strength);
  result.ranks = layout.shared ? layout.ranks : 1;
  result.paths_s =
      time_fenced(space, [&] { result.exchange_s = strongest_paths(space, layout, rows, options.reporter, received); });
  summarize(space, layout, rows, result);
  if (gather) gather_paths(space, layout, rows, result);
  out(space, layout, rows, result);
  check_result(result);
  if (!options.keep_paths) result.paths.clear();
  return result;
}

template <class ExecSpace, class Counts, class Out = NoPathsOut>
Result solve(const ExecSpace& space, const RowLayout& layout, const Counts& counts, const Options& options,
             const Out& out = {}, Workspace<typename ExecSpace::memory_space>* workspace = nullptr) {
  validate(options);
  const std::uint32_t largest = max_link_strength(space, layout, counts, options.rule);  // the same on every rank
  const bool fits16 = largest <= 0xffffu;
  if (options.strength_bits == StrengthBits::bits16 && !fits16) {
    fail("Schulze: strength_bits 16 requested but the largest link strength is ", largest / 2.0,
         " voters (doubled count ", largest, "; a doubled count of at most 65535 fits): use strength_bits 32 or auto");
  }
  // Host backends emulate the packed 16-bit min/max lane by lane, slower than 32-bit words, so
  // `auto` takes 16 bits on devices only.
  const bool use16 = options.strength_bits == StrengthBits::bits16 ||
                     (options.strength_bits == StrengthBits::automatic && fits16 && !runs_on_host<ExecSpace>);
  return use16 ? solve_with<std::uint16_t>(space, layout, counts, options, out, workspace)
               : solve_with<std::uint32_t>(space, layout, counts, options, out, workspace);
}

/// A solve of the caller's whole matrix (checked here), alone or shared by options.communicator's
/// ranks; the paths to `out`, the buffers in `workspace` (or none).
template <class ExecSpace, class DoubledView, class Out>
Result solve_whole_matrix(const ExecSpace& space, const DoubledView& doubled, const Options& options, const Out& out,
                          Workspace<typename ExecSpace::memory_space>* workspace) {
  preferences::check_doubled_view_type<ExecSpace, DoubledView>();
  preferences::check_square(doubled, "schulze::solve");
  const RowLayout layout = whole_matrix_layout(doubled.extent(0), options.communicator);
  return solve(space, layout, WholeCounts<DoubledView>{doubled}, options, out, workspace);
}

}  // namespace kollective::schulze::Impl

#endif
