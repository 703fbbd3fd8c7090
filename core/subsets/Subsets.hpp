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

/// The i-th submask of `mask` in increasing order (bit deposit of i into the members of mask).
KOKKOS_INLINE_FUNCTION std::uint64_t submask(std::uint64_t i, std::uint64_t mask) {
  std::uint64_t result = 0;
  for (std::uint64_t rest = mask; rest != 0 && i != 0; rest &= rest - 1, i >>= 1) {
    if (i & 1) result |= rest & (~rest + 1);
  }
  return result;
}

/// The `count` lowest members of `set`, or 0 when it has fewer.
KOKKOS_INLINE_FUNCTION std::uint64_t lowest_members(std::uint64_t set, int count) {
  std::uint64_t result = 0;
  for (; count > 0 && set != 0; --count, set &= set - 1) result |= set & (~set + 1);
  return count == 0 ? result : 0;
}

/// The submask of `mask` after `sub` with as many members, in increasing order (the colex order
/// of the deposited subsets), or 0 after the last: Gosper's hack on the members of `mask`. Adding
/// the lowest member carries through the run of members above it (the bits outside `mask` are
/// ones, so the carry skips them); all but one of the run go back to the lowest members of `mask`.
KOKKOS_INLINE_FUNCTION std::uint64_t next_same_size(std::uint64_t sub, std::uint64_t mask) {
  const std::uint64_t raised = ((sub | ~mask) + (sub & (~sub + 1))) & mask;
  if (raised == 0) return 0;
  std::uint64_t result = raised, free = mask;
  for (std::uint64_t run = (sub & ~raised) & ((sub & ~raised) - 1); run != 0; run &= run - 1) {
    result |= free & (~free + 1);
    free &= free - 1;
  }
  return result;
}

/// The colex rank of `sub` among the subsets of `mask` with as many members: the inverse of
/// submask(unrank_colex(r, k, |mask|, binomial), mask). A k-subset {c_1 < ... < c_k} of positions
/// in `mask` has rank C(c_1, 1) + ... + C(c_k, k).
template <class Binomials>
KOKKOS_INLINE_FUNCTION std::uint64_t rank_colex(std::uint64_t sub, std::uint64_t mask, const Binomials& binomial) {
  std::uint64_t rank = 0;
  int members = 0;
  for (int position = 0; mask != 0; mask &= mask - 1, ++position) {
    if (sub & mask & (~mask + 1)) rank += binomial(position, ++members);
  }
  return rank;
}

/// Pascal's triangle C(a, b) for a, b <= n on a memory space (for unrank_colex and layer sizes).
template <class MemorySpace, class ExecSpace>
Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, MemorySpace> binomial_table(const ExecSpace& space, int n) {
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, MemorySpace> table(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::binomial"), n + 1, n + 1);
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
