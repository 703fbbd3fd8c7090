#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_TRIANGLES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_TRIANGLES_IMPL_HPP

/// \file KemenyTriangles_Impl.hpp
/// The separation step of the LP bound (KemenyLP.hpp) on the device: for every pair i < j, the
/// most violated triangle inequality over k > j (n^3 / 6 checks a round). At most one
/// triangle per pair, chosen by violation and then the smallest k, so the cuts, and the bound, do
/// not depend on the backend's thread order. Do not include directly: include Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "algorithms/kemeny/KemenyLP.hpp"

namespace kollective::kemeny::Impl {

/// Violations below this are the LP solver's rounding, not cuts.
constexpr double triangle_tolerance = 1e-7;

template <class ExecSpace>
std::vector<Triangle> violated_triangles(const ExecSpace& space, const std::vector<double>& x, int n) {
  using MemorySpace = typename ExecSpace::memory_space;
  Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(x.data(), n, n);
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> point(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::lp_point"), n, n);
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> chosen(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::triangles"), n, n);
  Kokkos::deep_copy(space, point, host);
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  Kokkos::parallel_for(
      "Kollective::Kemeny::violated_triangles", Policy(space, {0, 0}, {n, n}), KOKKOS_LAMBDA(const int i, const int j) {
        int best = -1;  // 2 k + 1 for the upper inequality, 2 k for the lower one
        double most = triangle_tolerance;
        if (i < j) {
          const double ij = point(i, j);
          for (int k = j + 1; k < n; ++k) {
            const double jk = point(j, k), ik = point(i, k);
            const double upper = ij + jk - ik - 1, lower = ik - ij - jk;
            if (upper > most) most = upper, best = 2 * k + 1;
            if (lower > most) most = lower, best = 2 * k;
          }
        }
        chosen(i, j) = best;
      });
  const auto found = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), chosen);
  std::vector<Triangle> triangles;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (found(i, j) >= 0) triangles.push_back({i, j, found(i, j) / 2, found(i, j) % 2 == 1});
    }
  }
  return triangles;
}

}  // namespace kollective::kemeny::Impl

#endif
