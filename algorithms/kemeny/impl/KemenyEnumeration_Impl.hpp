#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_ENUMERATION_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_ENUMERATION_IMPL_HPP

/// \file KemenyEnumeration_Impl.hpp
/// The seed's method done right: exhaustive search over all n! rankings on the device. Work item w
/// maps to the first n - m positions through the factorial number system and Lehmer's code (every
/// digit computed, leading zeros included), then enumerates the m! orders of the remaining
/// alternatives depth first in lexicographic order, updating the distance incrementally: placing y
/// above the still-unplaced set R adds add[y][R] = sum over z in R of o[z][y] (a table). Each item
/// keeps its best distance and how many of its rankings reach it; the global optimum and the
/// exact count come from two built-in reductions, and a last pass lists optimal rankings (up to a
/// limit) from the items that reach the optimum only.
/// Do not include directly: include algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

template <class MemorySpace>
struct EnumerationData {
  int n = 0, suffix = 0;                                                ///< m = suffix length
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, MemorySpace> add;  ///< n x 2^n
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, MemorySpace> o;    ///< n x n

  /// Decodes item w into the prefix (positions 0..n-m-1) and returns the prefix's cost,
  /// including every pair (prefix member above unplaced alternative). `unplaced` gets the mask of
  /// the m alternatives left.
  KOKKOS_INLINE_FUNCTION std::uint64_t prefix(std::uint64_t w, int* ranking, std::uint32_t& unplaced) const {
    const int length = n - suffix;
    int digit[enumeration_max_alternatives];
    for (int p = length - 1; p >= 0; --p) {  // factoradic digits, least significant last position
      const int radix = n - p;
      digit[p] = static_cast<int>(w % radix);
      w /= radix;
    }
    unplaced = (std::uint32_t{1} << n) - 1;
    std::uint64_t cost = 0;
    for (int p = 0; p < length; ++p) {  // Lehmer code: the digit-th smallest unplaced alternative
      std::uint32_t rest = unplaced;
      for (int skip = 0; skip < digit[p]; ++skip) rest &= rest - 1;
      const int chosen = Kokkos::Experimental::countr_zero_builtin(rest);
      unplaced ^= std::uint32_t{1} << chosen;
      ranking[p] = chosen;
      cost += add(chosen, unplaced);
    }
    return cost;
  }

  /// The six orders of the three alternatives in `unplaced`, in lexicographic order: the last
  /// three levels of the depth-first search, which hold most of its nodes, without a stack.
  template <class Leaf>
  KOKKOS_INLINE_FUNCTION void last_three(int* slots, std::uint32_t unplaced, std::uint64_t cost,
                                         const Leaf& leaf) const {
    const int a = Kokkos::Experimental::countr_zero_builtin(unplaced);
    unplaced &= unplaced - 1;
    const int b = Kokkos::Experimental::countr_zero_builtin(unplaced);
    const int c = Kokkos::Experimental::countr_zero_builtin(unplaced & (unplaced - 1));
    const int orders[6][3] = {{a, b, c}, {a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}};
    int* ranking = slots - (n - 3);
    for (int k = 0; k < 6; ++k) {
      const int x = orders[k][0], y = orders[k][1], z = orders[k][2];
      slots[0] = x;
      slots[1] = y;
      slots[2] = z;
      leaf(cost + o(y, x) + o(z, x) + o(z, y), ranking);
    }
  }

  /// Depth-first over the orders of `unplaced`; calls leaf(distance, ranking) for each.
  template <class Leaf>
  KOKKOS_INLINE_FUNCTION void enumerate(int* ranking, std::uint32_t unplaced, std::uint64_t cost,
                                        const Leaf& leaf) const {
    const int length = n - suffix;
    std::uint64_t costs[enumeration_max_alternatives + 1];
    int next[enumeration_max_alternatives + 1];
    int depth = 0;
    costs[0] = cost;
    next[0] = 0;
    if (suffix == 0) {
      leaf(cost, ranking);
      return;
    }
    while (depth >= 0) {
      if (suffix - depth == 3 && next[depth] == 0) {  // first visit with three left: six leaves directly
        last_three(ranking + length + depth, unplaced, costs[depth], leaf);
        --depth;
        if (depth >= 0) unplaced |= std::uint32_t{1} << ranking[length + depth];
        continue;
      }
      const std::uint32_t candidates = unplaced & ~((std::uint32_t{1} << next[depth]) - 1);
      if (candidates == 0) {  // back up: put the element of the level above back
        --depth;
        if (depth >= 0) unplaced |= std::uint32_t{1} << ranking[length + depth];
        continue;
      }
      const int y = Kokkos::Experimental::countr_zero_builtin(candidates);
      next[depth] = y + 1;
      unplaced ^= std::uint32_t{1} << y;
      ranking[length + depth] = y;
      costs[depth + 1] = costs[depth] + add(y, unplaced);
      if (depth + 1 == suffix) {
        leaf(costs[depth + 1], ranking);
        unplaced |= std::uint32_t{1} << y;
      } else {
        ++depth;
        next[depth] = 0;
      }
    }
  }
};

}  // namespace kollective::kemeny::Impl

#endif
