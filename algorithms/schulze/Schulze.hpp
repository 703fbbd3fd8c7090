#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_HPP

/// \file Schulze.hpp
/// Schulze voting: link strengths from the pairwise matrix, strongest paths by a blocked
/// (max, min) Floyd-Warshall on the device, then winners, the beat relation and a ranking. One
/// rank solves alone, or the ranks of options.communicator share a solve: each holds a run of tile
/// rows of the path matrix, and the rank holding the pivot rows broadcasts them (NCCL on GPUs).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/algorithms/schulze/impl/SchulzeSolve_Impl.hpp"
#include "kollective/algorithms/schulze/impl/Schulze_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Workspace.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::schulze {

/// Tile width of the blocked Floyd-Warshall; matrices are padded to a multiple of it.
constexpr int tile_width = Impl::tile;

/// Solves a Schulze election from the caller's doubled pairwise counts, read in place.
/// \param space execution space instance (first, as everywhere)
/// \param doubled n x n View of 2 d[i][j], twice the voters preferring i to j (a tie gives each
///        side 1): unsigned integers of at most 32 bits, any layout, const allowed, in memory
///        `space` can read
/// With more than one rank in options.communicator, a collective: every rank passes the same
/// matrix, holds its share of the paths, and gets the whole result.
template <class ExecSpace, class DoubledView>
Result solve(const ExecSpace& space, const DoubledView& doubled, const Options& options = {}) {
  return Impl::solve_whole_matrix(space, doubled, options, Impl::NoPathsOut{}, nullptr);
}

/// solve(), with the path rows (and a shared solve's pivot rows) taken from `workspace` and left
/// there for the next solve of the same size, strength width and ranks (kollective::Workspace):
/// for many elections in a row.
template <class ExecSpace, class DoubledView>
Result solve(const ExecSpace& space, const DoubledView& doubled, const Options& options,
             Workspace<typename ExecSpace::memory_space>& workspace) {
  return Impl::solve_whole_matrix(space, doubled, options, Impl::NoPathsOut{}, &workspace);
}

/// As solve(space, doubled, options), and the strongest paths (doubled strengths p[i][j]) into the
/// caller's `paths`: an n x n View of std::uint32_t, any layout, in memory `space` can write. They
/// stay there (copied on the device; a solve shared by several ranks gathers them through the
/// host first); result.paths holds them on the host too only with options.keep_paths.
template <class ExecSpace, class DoubledView, class PathsView>
Result solve(const ExecSpace& space, const DoubledView& doubled, const PathsView& paths, const Options& options = {}) {
  static_assert(Kokkos::is_view<PathsView>::value && PathsView::rank() == 2,
                "schulze::solve: the paths must be a rank-2 Kokkos::View (n x n)");
  static_assert(std::is_same<typename PathsView::value_type, std::uint32_t>::value,
                "schulze::solve: the paths must be a View of std::uint32_t (not const)");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename PathsView::memory_space>::accessible,
                "schulze::solve: the paths must be in a memory space the execution space can write");
  if (paths.extent(0) != doubled.extent(0) || paths.extent(1) != doubled.extent(0)) {
    fail("schulze::solve: the paths View is ", paths.extent(0), " x ", paths.extent(1), "; the election has ",
         doubled.extent(0), " alternatives");
  }
  return Impl::solve_whole_matrix(space, doubled, options, Impl::PathsOut<PathsView>{paths}, nullptr);
}

/// The alternatives [first, first + count) whose rows of the pairwise matrix this rank of
/// `communicator` passes to solve_shared for an election of n alternatives.
struct SharedRows {
  std::int64_t first = 0, count = 0;
};
inline SharedRows shared_rows(std::int64_t n, const comm::Communicator& communicator) {
  const Impl::RowLayout layout = Impl::spread(n, communicator.rank(), communicator.size());
  return {layout.first_row(layout.rank), layout.real_rows(layout.rank)};
}

/// Fails unless the default execution space's memory holds a solve of n alternatives alone with
/// strengths of `strength_bytes`, the whole pairwise matrix included. `of` ends the message.
inline void require_memory(std::int64_t n, int strength_bytes, const std::string& of) {
  const std::int64_t counts = checked_mul(4 * n, n, "pairwise matrix");
  Impl::require_memory(memory_kind<Kokkos::DefaultExecutionSpace::memory_space>(), Impl::alone(n), strength_bytes,
                       counts, of);
}
/// The same for this rank's part of solve_shared over `communicator`: its rows of the paths and
/// of the pairwise counts (named, with how many ranks would fit).
inline void require_shared_memory(std::int64_t n, const comm::Communicator& communicator, int strength_bytes,
                                  const std::string& of) {
  const Impl::RowLayout layout = Impl::spread(n, communicator.rank(), communicator.size());
  const std::int64_t counts = checked_mul(8 * layout.real_rows(layout.rank), n, "pairwise rows");
  Impl::require_memory(memory_kind<Kokkos::DefaultExecutionSpace::memory_space>(), layout, strength_bytes, counts, of);
}

/// Solves a Schulze election shared by the ranks of options.communicator (a collective: every
/// rank calls it with its rows of the same election, those of shared_rows(n, communicator)).
/// Every rank gets the whole result; its paths when options.keep_paths.
template <class ExecSpace, class MemorySpace>
Result solve_shared(const ExecSpace& space, const preferences::PairwiseRows<MemorySpace>& rows, std::int64_t n,
                    const Options& options = {}) {
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                "Schulze::solve_shared: the pairwise rows must be accessible from the execution space");
  const comm::Communicator& communicator = options.communicator;
  communicator.on_every_rank([&] {  // a rank with the wrong rows stops every rank, none waits for it
    const SharedRows expected = shared_rows(n, communicator);
    if (rows.first != expected.first || rows.count() != expected.count ||
        static_cast<std::int64_t>(rows.forward.extent(1)) != n || rows.backward.extent(0) != rows.forward.extent(0) ||
        rows.backward.extent(1) != rows.forward.extent(1)) {
      fail("Schulze::solve_shared: this rank must pass the rows [", expected.first, ", ",
           expected.first + expected.count, ") of all ", n, " columns in both directions");
    }
    return 0;
  });
  return Impl::solve(space, Impl::spread(n, communicator), Impl::RowCounts<MemorySpace>{rows}, options);
}

/// Strongest paths in place on a padded strength matrix (extents multiples of tile_width):
/// the kernel benchmarks time this call alone.
template <class ExecSpace, class Strength, class MemorySpace>
void strongest_paths(const ExecSpace& space, const Kokkos::View<Strength**, Kokkos::LayoutRight, MemorySpace>& paths) {
  static_assert(std::is_same<Strength, std::uint32_t>::value || std::is_same<Strength, std::uint16_t>::value,
                "strengths are 32- or 16-bit unsigned");
  Impl::strongest_paths(space, paths);
}

/// Padded link-strength matrix of the given width from doubled counts.
template <class Strength, class ExecSpace, class DoubledView>
Kokkos::View<Strength**, Kokkos::LayoutRight, typename ExecSpace::memory_space> link_strengths(
    const ExecSpace& space, const DoubledView& doubled, LinkRule rule) {
  preferences::check_doubled_view_type<ExecSpace, DoubledView>();
  preferences::check_square(doubled, "schulze::link_strengths");
  const Impl::RowLayout layout = Impl::alone(doubled.extent(0));
  Impl::check_memory(memory_kind<typename ExecSpace::memory_space>(), layout, sizeof(Strength));
  return Impl::link_strengths<Strength>(space, layout, Impl::WholeCounts<DoubledView>{doubled}, rule);
}

}  // namespace kollective::schulze

#endif
