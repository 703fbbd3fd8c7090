#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_HPP

/// \file Schulze.hpp
/// Schulze voting: link strengths from the pairwise matrix, strongest paths by a blocked
/// (max, min) Floyd-Warshall on the device, then winners, the beat relation and a ranking.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "algorithms/schulze/SchulzeTypes.hpp"
#include "algorithms/schulze/impl/Schulze_Impl.hpp"
#include "core/Error.hpp"
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
  return Impl::solve(space, doubled, options);
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
  return Impl::link_strengths<Strength>(space, doubled, rule);
}

}  // namespace kollective::schulze

#endif
