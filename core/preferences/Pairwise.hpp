#ifndef KOLLECTIVE_CORE_PREFERENCES_PAIRWISE_HPP
#define KOLLECTIVE_CORE_PREFERENCES_PAIRWISE_HPP

/// \file Pairwise.hpp
/// The pairwise matrix d[i][j] = weight of ballots ranking i above j. A tie counts 1/2 to each
/// side, so counts are kept doubled (2 d[i][j]) in integers and stay exact.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Random.hpp"
#include "core/preferences/Profile.hpp"

namespace kollective::preferences {

/// Doubled pairwise counts on a memory space, row-major (n x n).
template <class MemorySpace>
using PairwiseView = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, MemorySpace>;

/// Host copy with names, for IO and references.
struct PairwiseCounts {
  int alternatives = 0;
  std::vector<std::string> names;
  std::vector<std::uint32_t> doubled;  ///< n*n, row-major
  std::uint32_t at(int i, int j) const { return doubled[static_cast<size_t>(i) * alternatives + j]; }
};

/// Serial reference: doubled counts straight from the ballots.
PairwiseCounts pairwise_reference(const Profile& profile);

/// Reads an RFC 4180 CSV matrix: an optional header row of distinct names (first cell empty or
/// not a number), a leading name column only with a header, cells are decimal counts that are
/// whole or end in .5; the diagonal must be 0 or empty. Errors name the file and line.
PairwiseCounts read_pairwise_csv(const std::string& path);
/// Writes the matrix with a header row and a name column (core/Csv.hpp's writer).
void write_pairwise_csv(const PairwiseCounts& counts, const std::string& path);

/// Device builder: one work item per (i, j) cell in MDRange tiles, looping over ballots.
template <class ExecSpace>
PairwiseView<typename ExecSpace::memory_space> build_pairwise(const ExecSpace& space, const Profile& profile) {
  using MemorySpace = typename ExecSpace::memory_space;
  const int n = profile.alternatives;
  const auto ballots = static_cast<std::int64_t>(profile.ballots.size());
  if (2 * profile.total_weight() > std::int64_t{0xffffffff}) {
    fail("total voter weight ", profile.total_weight(), " is too large for 32-bit doubled pairwise counts");
  }
  const std::int64_t cells = checked_mul(n, n, "pairwise matrix");
  require_device_memory(checked_mul(cells, 4, "pairwise matrix") +
                            checked_mul(checked_mul(ballots, n, "ballot positions"), 4, "ballot positions") +
                            8 * ballots,
                        "the pairwise matrix of " + std::to_string(n) + " alternatives");

  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> position(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::positions"), ballots, n);
  Kokkos::View<std::int64_t*, MemorySpace> weight(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::weights"), ballots);
  auto position_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), position);
  auto weight_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), weight);
  for (std::int64_t b = 0; b < ballots; ++b) {
    const auto pos = positions(profile.ballots[b], n);
    for (int a = 0; a < n; ++a) position_host(b, a) = pos[a];
    weight_host(b) = profile.ballots[b].count;
  }
  Kokkos::deep_copy(space, position, position_host);
  Kokkos::deep_copy(space, weight, weight_host);

  PairwiseView<MemorySpace> doubled(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::doubled"), n, n);
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "Kollective::Pairwise::build", Policy(space, {0, 0}, {n, n}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        std::int64_t sum = 0;
        for (std::int64_t b = 0; b < ballots; ++b) {
          const int pi = position(b, i), pj = position(b, j);
          const std::int64_t above = pi < pj ? 2 : (pi == pj && pi != unranked && i != j ? 1 : 0);
          sum += above * weight(b);
        }
        doubled(i, j) = static_cast<std::uint32_t>(sum);
      });
  space.fence();  // the staging views die at return
  return doubled;
}

/// Copies a device matrix to host counts with names.
template <class MemorySpace>
PairwiseCounts to_host(const PairwiseView<MemorySpace>& doubled, std::vector<std::string> names) {
  PairwiseCounts counts;
  counts.alternatives = static_cast<int>(doubled.extent(0));
  counts.names = std::move(names);
  counts.doubled.resize(doubled.size());
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
      counts.doubled.data(), doubled.extent(0), doubled.extent(1));
  Kokkos::deep_copy(host, doubled);
  return counts;
}

/// Copies host counts to a device matrix.
template <class ExecSpace>
PairwiseView<typename ExecSpace::memory_space> to_device(const ExecSpace& space, const PairwiseCounts& counts) {
  const int n = counts.alternatives;
  require_device_memory(checked_mul(checked_mul(n, n, "pairwise matrix"), 4, "pairwise matrix"),
                        "the pairwise matrix of " + std::to_string(n) + " alternatives");
  PairwiseView<typename ExecSpace::memory_space> doubled(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::doubled"), n, n);
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
      counts.doubled.data(), n, n);
  Kokkos::deep_copy(space, doubled, host);
  space.fence();
  return doubled;
}

/// A random tournament profile generated on the device: for each pair i < j, `voters` voters
/// split uniformly at random between i > j and j > i. Reproducible from `seed` on every backend.
template <class ExecSpace>
PairwiseView<typename ExecSpace::memory_space> random_pairwise(const ExecSpace& space, int n, std::uint32_t voters,
                                                               std::uint64_t seed) {
  if (voters > 0x7fffffffu) fail("random pairwise matrix: at most 2^31 - 1 voters, got ", voters);
  require_device_memory(checked_mul(checked_mul(n, n, "pairwise matrix"), 4, "pairwise matrix"),
                        "the pairwise matrix of " + std::to_string(n) + " alternatives");
  PairwiseView<typename ExecSpace::memory_space> doubled(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::doubled"), n, n);
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t size = n;
  Kokkos::parallel_for(
      "Kollective::Pairwise::random", Policy(space, {0, 0}, {size, size}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        const std::int64_t low = i < j ? i : j, high = i < j ? j : i;
        const auto for_low = static_cast<std::uint32_t>(
            bounded(hash_draw(seed, static_cast<std::uint64_t>(low * size + high)), voters + 1ull));
        doubled(i, j) = i == j ? 0u : 2u * (i == low ? for_low : voters - for_low);
      });
  space.fence();
  return doubled;
}

}  // namespace kollective::preferences

#endif
