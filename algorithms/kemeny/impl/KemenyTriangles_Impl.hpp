#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_TRIANGLES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_TRIANGLES_IMPL_HPP

/// \file KemenyTriangles_Impl.hpp
/// The separation step of the LP bound (KemenyLP.hpp), on an execution space or, for small n, on
/// the calling thread: for every pair i < j, the most violated triangle inequalities over k > j
/// (n^3 / 6 checks a round; with a guide ranking, only the triangles tight at it). At most
/// `per_pair` triangles per pair, chosen by violation and then the smallest k, so the cuts, and
/// the bound, do not depend on the backend's thread order. Do not include directly: include
/// Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::kemeny::Impl {

/// Violations below this are the LP solver's rounding, not cuts.
constexpr double triangle_tolerance = 1e-7;

/// A pair's most violated triangles so far, most violated first: code 2 k + 1 for the upper
/// inequality of (i, j, k), 2 k for the lower one.
struct PairTriangles {
  double violation[most_triangles_per_pair];
  int code[most_triangles_per_pair];
  int found = 0;

  /// Takes a candidate among the first `count`; one that only ties the last kept stays out, so
  /// ties keep the order offered (k ascending, the upper inequality first).
  KOKKOS_INLINE_FUNCTION void offer(double v, int c, int count) {
    if (v <= triangle_tolerance || (found == count && v <= violation[count - 1])) return;
    int at = found < count ? found++ : count - 1;
    for (; at > 0 && violation[at - 1] < v; --at) violation[at] = violation[at - 1], code[at] = code[at - 1];
    violation[at] = v, code[at] = c;
  }
};

/// Whether the ranking with positions p keeps two arcs of the dicycle a -> b -> c -> a (else one):
/// whether the dicycle's triangle inequality is tight there.
template <class Positions>
KOKKOS_INLINE_FUNCTION bool keeps_two(const Positions& p, int a, int b, int c) {
  return (p(a) < p(b)) + (p(b) < p(c)) + (p(c) < p(a)) == 2;
}

/// The up to `count` most violated triangle inequalities of pair i < j over k > j at the point x
/// (row-major, n x n), count at most most_triangles_per_pair; where `guide` (the positions of a
/// ranking, p(a) = a's place) has n entries, only those tight at that ranking.
template <class Point, class Positions>
KOKKOS_INLINE_FUNCTION PairTriangles most_violated(const Point& x, int n, int i, int j, int count,
                                                   const Positions& guide) {
  PairTriangles kept;
  const bool guided = static_cast<int>(guide.extent(0)) == n;
  const double ij = x(i, j);
  for (int k = j + 1; k < n; ++k) {
    const double jk = x(j, k), ik = x(i, k);
    // Of a triple's two inequalities (the dicycles i -> j -> k -> i and i -> k -> j -> i), a
    // ranking makes exactly one tight.
    const bool upper_tight = guided && keeps_two(guide, i, j, k);
    if (!guided || upper_tight) kept.offer(ij + jk - ik - 1, 2 * k + 1, count);
    if (!guided || !upper_tight) kept.offer(ik - ij - jk, 2 * k, count);
  }
  return kept;
}

/// An LP point x on the host as an n x n view (read in place).
using HostPoint = Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
/// A guide's positions on the host (read in place; empty: no guide).
using HostPositions = Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

/// The triangle of pair i < j that a PairTriangles code names.
inline Triangle coded_triangle(int i, int j, int code) { return {i, j, code / 2, code % 2 == 1}; }

/// Checks the count a caller asks for and the guide's size (n or none).
inline void check_request(int n, int per_pair, const std::vector<int>& guide) {
  if (per_pair < 1 || per_pair > most_triangles_per_pair) {
    fail("internal error: ", per_pair, " triangles per pair asked (1 to ", most_triangles_per_pair, ")");
  }
  if (!guide.empty() && static_cast<int>(guide.size()) != n) {
    fail("internal error: a guide of ", guide.size(), " positions for ", n, " alternatives");
  }
}

/// The search on the calling thread, with no launch: for small n (Kemeny_Impl.hpp). `guide`: see
/// TriangleSeparation.
inline std::vector<Triangle> violated_triangles_on_host(const std::vector<double>& x, int n, int per_pair = 1,
                                                        const std::vector<int>& guide = {}) {
  check_request(n, per_pair, guide);
  const HostPoint point(x.data(), n, n);
  const HostPositions positions(guide.data(), guide.size());
  std::vector<Triangle> triangles;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const PairTriangles kept = most_violated(point, n, i, j, per_pair, positions);
      for (int t = 0; t < kept.found; ++t) triangles.push_back(coded_triangle(i, j, kept.code[t]));
    }
  }
  return triangles;
}

/// The search's kernel for the pair (i, j): its most violated triangles' codes into chosen(i, j,
/// :), -1 past the last (none below the diagonal). A named functor, not a KOKKOS_LAMBDA: with the
/// lambda, the CUDA tests' triangle search, run alone, crashed on a null call in the copy of nvcc's
/// host-device lambda wrapper (it passed after the other Kemeny tests; 2026-12-01).
template <class Point, class Positions, class Chosen>
struct TriangleSearch {
  Point point;
  Positions guide;
  Chosen chosen;
  int n, per_pair;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, const int j) const {
    const PairTriangles kept = i < j ? most_violated(point, n, i, j, per_pair, guide) : PairTriangles{};
    for (int t = 0; t < per_pair; ++t) chosen(i, j, t) = t < kept.found ? kept.code[t] : -1;
  }
};

/// The same search as one kernel on `space`.
template <class ExecSpace>
std::vector<Triangle> violated_triangles(const ExecSpace& space, const std::vector<double>& x, int n, int per_pair = 1,
                                         const std::vector<int>& guide = {}) {
  check_request(n, per_pair, guide);
  using MemorySpace = typename ExecSpace::memory_space;
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> point(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::lp_point"), n, n);
  Kokkos::View<int*, MemorySpace> positions(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::guide"), guide.size());
  Kokkos::deep_copy(space, positions, HostPositions(guide.data(), guide.size()));
  Kokkos::View<int***, Kokkos::LayoutRight, MemorySpace> chosen(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::triangles"), n, n, per_pair);
  Kokkos::deep_copy(space, point, HostPoint(x.data(), n, n));
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  Kokkos::parallel_for(
      "Kollective::Kemeny::violated_triangles", Policy(space, {0, 0}, {n, n}),
      TriangleSearch<decltype(point), decltype(positions), decltype(chosen)>{point, positions, chosen, n, per_pair});
  // On `space` alone: a global fence would wait for the work beside this search (Kemeny_Impl.hpp's
  // anytime_component: the chains' launches, the host's memetic search).
  const auto found = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, chosen);
  Kokkos::deep_copy(space, found, chosen);
  space.fence("Kollective::Kemeny::violated_triangles");
  std::vector<Triangle> triangles;  // in row-major pair order, as on the host
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int t = 0; t < per_pair && found(i, j, t) >= 0; ++t)
        triangles.push_back(coded_triangle(i, j, found(i, j, t)));
    }
  }
  return triangles;
}

}  // namespace kollective::kemeny::Impl

#endif
