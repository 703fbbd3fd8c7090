#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_HPP

/// \file Schulze.hpp
/// Schulze voting: link strengths from the pairwise matrix, strongest paths by a blocked
/// (max, min) Floyd-Warshall on the device, then winners, the beat relation and a ranking. One
/// rank solves alone, or every rank shares a solve: each holds a run of tile rows of the path
/// matrix, and the rank holding the pivot rows broadcasts them (NCCL on GPUs).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/algorithms/schulze/impl/SchulzeSolve_Impl.hpp"
#include "kollective/algorithms/schulze/impl/Schulze_Impl.hpp"
#include "kollective/core/Error.hpp"
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
template <class ExecSpace, class DoubledView>
Result solve(const ExecSpace& space, const DoubledView& doubled, const Options& options = {}) {
  preferences::check_doubled_view_type<ExecSpace, DoubledView>();
  preferences::check_square(doubled, "schulze::solve");
  return Impl::solve(space, Impl::alone(doubled.extent(0)), Impl::WholeCounts<DoubledView>{doubled}, options);
}

/// The alternatives [first, first + count) whose rows of the pairwise matrix this rank passes to
/// solve_shared for an election of n alternatives.
struct SharedRows {
  std::int64_t first = 0, count = 0;
};
inline SharedRows shared_rows(std::int64_t n) {
  const Impl::RowLayout layout = Impl::spread(n, comm::rank(), comm::size());
  return {layout.first_row(layout.rank), layout.real_rows(layout.rank)};
}

/// Fails unless this rank's device memory holds a solve of n alternatives with strengths of
/// `strength_bytes`, pairwise counts included: alone, the whole matrix; shared by every rank
/// (`shared`), this rank's rows (named, with how many ranks would fit). `of` ends the message.
inline void require_memory(std::int64_t n, bool shared, int strength_bytes, const std::string& of) {
  const Impl::RowLayout layout = shared ? Impl::spread(n, comm::rank(), comm::size()) : Impl::alone(n);
  const std::int64_t counts = shared ? checked_mul(8 * layout.real_rows(layout.rank), n, "pairwise rows")
                                     : checked_mul(4 * n, n, "pairwise matrix");
  Impl::require_memory(memory_kind<Kokkos::DefaultExecutionSpace::memory_space>(), layout, strength_bytes, counts, of);
}

/// Solves a Schulze election shared by every rank (a collective: every rank calls it with its
/// rows of the same election, those of shared_rows(n)). Every rank gets the whole result; its
/// paths when options.keep_paths.
template <class ExecSpace, class MemorySpace>
Result solve_shared(const ExecSpace& space, const preferences::PairwiseRows<MemorySpace>& rows, std::int64_t n,
                    const Options& options = {}) {
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                "Schulze::solve_shared: the pairwise rows must be accessible from the execution space");
  comm::on_every_rank([&] {  // a rank with the wrong rows stops every rank, none waits for it
    const SharedRows expected = shared_rows(n);
    if (rows.first != expected.first || rows.count() != expected.count ||
        static_cast<std::int64_t>(rows.forward.extent(1)) != n || rows.backward.extent(0) != rows.forward.extent(0) ||
        rows.backward.extent(1) != rows.forward.extent(1)) {
      fail("Schulze::solve_shared: this rank must pass the rows [", expected.first, ", ",
           expected.first + expected.count, ") of all ", n, " columns in both directions");
    }
    return 0;
  });
  return Impl::solve(space, Impl::spread(n, comm::rank(), comm::size()), Impl::RowCounts<MemorySpace>{rows}, options);
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
