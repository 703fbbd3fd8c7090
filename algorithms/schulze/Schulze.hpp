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

#include "algorithms/schulze/SchulzeTypes.hpp"
#include "algorithms/schulze/impl/SchulzeSolve_Impl.hpp"
#include "algorithms/schulze/impl/Schulze_Impl.hpp"
#include "core/Error.hpp"
#include "core/comm/Communicator.hpp"
#include "core/preferences/Pairwise.hpp"

namespace kollective::schulze {

/// Tile width of the blocked Floyd-Warshall; matrices are padded to a multiple of it.
constexpr int tile_width = Impl::tile;

/// Solves a Schulze election from doubled pairwise counts already on the device.
/// \param space execution space instance (first, as everywhere)
/// \param doubled n x n doubled pairwise counts (2 d[i][j]), accessible from `space`
template <class ExecSpace, class MemorySpace>
Result solve(const ExecSpace& space, const preferences::PairwiseView<MemorySpace>& doubled,
             const Options& options = {}) {
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                "Schulze::solve: the pairwise matrix must be accessible from the execution space");
  if (doubled.extent(0) != doubled.extent(1)) fail("Schulze: the pairwise matrix is not square");
  return Impl::solve(space, Impl::alone(doubled.extent(0)), Impl::WholeCounts<MemorySpace>{doubled}, options);
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
  Impl::require_memory(layout, strength_bytes, counts, of);
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
template <class Strength, class ExecSpace, class MemorySpace>
Kokkos::View<Strength**, Kokkos::LayoutRight, MemorySpace> link_strengths(
    const ExecSpace& space, const preferences::PairwiseView<MemorySpace>& doubled, LinkRule rule) {
  const Impl::RowLayout layout = Impl::alone(doubled.extent(0));
  Impl::check_memory(layout, sizeof(Strength));
  return Impl::link_strengths<Strength>(space, layout, Impl::WholeCounts<MemorySpace>{doubled}, rule);
}

}  // namespace kollective::schulze

#endif
