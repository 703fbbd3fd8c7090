#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_TRIANGLES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_TRIANGLES_IMPL_HPP

/// \file KemenyTriangles_Impl.hpp
/// The separation step of the LP bound (KemenyLP.hpp), on an execution space or, for small n, on
/// the calling thread: for every pair i < j, the most violated triangle inequality over k > j
/// (n^3 / 6 checks a round). At most one triangle per pair, chosen by violation and then the
/// smallest k, so the cuts, and the bound, do not depend on the backend's thread order. Do not
/// include directly: include Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"

namespace kollective::kemeny::Impl {

/// Violations below this are the LP solver's rounding, not cuts.
constexpr double triangle_tolerance = 1e-7;

/// The most violated triangle inequality of pair i < j over k > j at the point x (row-major,
/// n x n): 2 k + 1 for the upper inequality, 2 k for the lower one, -1 for none.
template <class Point>
KOKKOS_INLINE_FUNCTION int most_violated(const Point& x, int n, int i, int j) {
  int best = -1;
  double most = triangle_tolerance;
  const double ij = x(i, j);
  for (int k = j + 1; k < n; ++k) {
    const double jk = x(j, k), ik = x(i, k);
    const double upper = ij + jk - ik - 1, lower = ik - ij - jk;
    if (upper > most) most = upper, best = 2 * k + 1;
    if (lower > most) most = lower, best = 2 * k;
  }
  return best;
}

/// An LP point x on the host as an n x n view (read in place).
using HostPoint = Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

/// The triangles of the pairs i < j, in row-major pair order, by choice(i, j) as most_violated
/// gives it.
template <class Choice>
std::vector<Triangle> chosen_triangles(const Choice& choice, int n) {
  std::vector<Triangle> triangles;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const int best = choice(i, j);
      if (best >= 0) triangles.push_back({i, j, best / 2, best % 2 == 1});
    }
  }
  return triangles;
}

/// The search on the calling thread, with no launch: for small n (Kemeny_Impl.hpp).
inline std::vector<Triangle> violated_triangles_on_host(const std::vector<double>& x, int n) {
  const HostPoint point(x.data(), n, n);
  return chosen_triangles([&](int i, int j) { return most_violated(point, n, i, j); }, n);
}

/// The same search as one kernel on `space`.
template <class ExecSpace>
std::vector<Triangle> violated_triangles(const ExecSpace& space, const std::vector<double>& x, int n) {
  using MemorySpace = typename ExecSpace::memory_space;
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> point(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::lp_point"), n, n);
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> chosen(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::triangles"), n, n);
  Kokkos::deep_copy(space, point, HostPoint(x.data(), n, n));
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  Kokkos::parallel_for(
      "Kollective::Kemeny::violated_triangles", Policy(space, {0, 0}, {n, n}),
      KOKKOS_LAMBDA(const int i, const int j) { chosen(i, j) = i < j ? most_violated(point, n, i, j) : -1; });
  const auto found = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), chosen);
  return chosen_triangles([&](int i, int j) { return found(i, j); }, n);
}

}  // namespace kollective::kemeny::Impl

#endif
