#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_HPP

/// \file Schulze.hpp
/// Schulze voting: link strengths from the pairwise matrix, strongest paths by a blocked
/// (max, min) Floyd-Warshall on the device, then winners, the beat relation and a ranking.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/preferences/Pairwise.hpp"

namespace kollective::schulze {

enum class LinkRule {
  winning_votes,  ///< p[i][j] = d[i][j] if d[i][j] > d[j][i], else 0 (Schulze's default)
  margin          ///< p[i][j] = max(0, d[i][j] - d[j][i])
};
enum class StrengthWidth {
  automatic,  ///< on GPUs 16 bits when every (doubled) strength is below 65536; 32 on host backends
  bits32,
  bits16  ///< fails when a strength does not fit
};

struct Options {
  LinkRule rule = LinkRule::winning_votes;
  StrengthWidth width = StrengthWidth::automatic;
  bool keep_paths = false;  ///< copy the strongest-path matrix to the result
};

struct Result {
  int alternatives = 0;
  int strength_bits = 32;                  ///< width the path computation used
  std::vector<int> winners;                ///< every i with p[i][j] >= p[j][i] for all j
  std::vector<int> beaten;                 ///< per i: number of j with p[i][j] > p[j][i]
  std::vector<std::vector<int>> ranking;   ///< groups by beaten count, most first
  std::vector<std::uint32_t> paths;        ///< n*n doubled strengths, when keep_paths
  double paths_seconds = 0.0;              ///< fenced time of the strongest-path kernels alone
  std::uint32_t path(int i, int j) const { return paths[static_cast<size_t>(i) * alternatives + j]; }
};

LinkRule parse_link_rule(const std::string& name);          ///< "winning_votes" | "margin"
StrengthWidth parse_strength_width(const std::string& name);  ///< "auto" | "32" | "16"
const char* to_string(LinkRule rule);

/// Groups alternatives by beaten count, most first (ties grouped, indices ascending).
std::vector<std::vector<int>> rank_by_beaten(const std::vector<int>& beaten);

}  // namespace kollective::schulze

#include "algorithms/schulze/impl/Schulze_Impl.hpp"

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
void strongest_paths(const ExecSpace& space,
                     const Kokkos::View<Strength**, Kokkos::LayoutRight, MemorySpace>& paths) {
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
