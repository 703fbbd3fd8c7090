#ifndef KOLLECTIVE_CORE_SUBSETS_HPP
#define KOLLECTIVE_CORE_SUBSETS_HPP

/// \file Subsets.hpp
/// Bit-set helpers for dynamic programs over subsets (64-bit masks), usable in kernels.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kollective::subsets {

/// The r-th k-subset of {0..n-1} in colex order (the order of increasing masks among subsets of
/// size k), as a mask. `binomial(a, b)` must give C(a, b) for a <= n, b <= k.
template <class Binomials>
KOKKOS_INLINE_FUNCTION std::uint64_t unrank_colex(std::uint64_t r, int k, int n, const Binomials& binomial) {
  std::uint64_t mask = 0;
  int c = n - 1;
  for (int i = k; i >= 1; --i) {
    while (binomial(c, i) > r) --c;  // largest c with C(c, i) <= r
    mask |= std::uint64_t{1} << c;
    r -= binomial(c, i);
    --c;
  }
  return mask;
}

/// Pascal's triangle C(a, b) for a, b <= n on a memory space (for unrank_colex and layer sizes).
template <class MemorySpace, class ExecSpace>
Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, MemorySpace> binomial_table(const ExecSpace& space, int n) {
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, MemorySpace> table("Kollective::binomial", n + 1, n + 1);
  auto host = Kokkos::create_mirror_view(table);
  for (int a = 0; a <= n; ++a) {
    for (int b = 0; b <= n; ++b) host(a, b) = b == 0 ? 1 : (a == 0 ? 0 : host(a - 1, b - 1) + host(a - 1, b));
  }
  Kokkos::deep_copy(space, table, host);
  space.fence();
  return table;
}

/// C(a, b) in double, for sizes and estimates on the host (exact while it stays below 2^53).
inline double choose(int a, int b) {
  double result = 1;
  for (int k = 1; k <= b; ++k) result = result * (a - b + k) / k;
  return result;
}

/// a + b, or 2^64 - 1 when that overflows.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t sum = a + b;
  return sum < a ? ~std::uint64_t{0} : sum;
}

}  // namespace kollective::subsets

#endif
