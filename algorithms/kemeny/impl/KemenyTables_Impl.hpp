#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_TABLES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_TABLES_IMPL_HPP

/// \file KemenyTables_Impl.hpp
/// The subset DP's tables: the cost of placing c below every other member of a set, as two
/// half-width tables (cost(c, S) = low[c][S & low_mask] + high[c][S >> half]), and best / ways by
/// set (all 2^n sets on one rank, or one rank's share). Do not include directly: include
/// algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::kemeny::Impl {

/// The DP tables of one profile on a memory space.
template <class Distance, class MemorySpace>
struct SubsetTables {
  int n = 0, half = 0;
  Kokkos::View<Distance**, Kokkos::LayoutRight, MemorySpace> low, high;  ///< cost tables
  Kokkos::View<Distance*, MemorySpace> best;                             ///< by set (or low part)
  Kokkos::View<std::uint64_t*, MemorySpace> ways;                        ///< by set (or low part)

  /// Offsets in 32 bits (c < 64, each half at most 20 bits of a set): the View's own 64-bit
  /// indexing costs registers that the DP kernel needs for occupancy.
  static_assert(dp_max_alternatives <= 40, "cost() keeps its table offsets in 32 bits");
  KOKKOS_INLINE_FUNCTION Distance cost(int c, std::uint64_t set) const {
    const std::uint32_t row = static_cast<std::uint32_t>(c), low_mask = (std::uint32_t{1} << half) - 1;
    return low.data()[row << half | (static_cast<std::uint32_t>(set) & low_mask)] +
           high.data()[row << (n - half) | static_cast<std::uint32_t>(set >> half)];
  }
};

/// Tables with the cost tables of `o` filled in (best and ways not yet allocated).
template <class Distance, class ExecSpace>
SubsetTables<Distance, typename ExecSpace::memory_space> cost_tables(const ExecSpace& space, const Counts& o) {
  const int n = o.alternatives;
  SubsetTables<Distance, typename ExecSpace::memory_space> t;
  t.n = n;
  t.half = n / 2;
  const int high_bits = n - t.half;
  const auto outranking = preferences::to_device(space, o);
  t.low = decltype(t.low)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::low"), n,
                          std::size_t{1} << t.half);
  t.high = decltype(t.high)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::high"), n,
                            std::size_t{1} << high_bits);
  const auto low = t.low, high = t.high;
  const int half = t.half;
  Kokkos::parallel_for(
      "Kollective::Kemeny::cost_tables",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                      static_cast<std::int64_t>(n) << high_bits),
      KOKKOS_LAMBDA(const std::int64_t item) {
        const int c = static_cast<int>(item >> high_bits);
        const std::uint64_t set = static_cast<std::uint64_t>(item) & ((std::uint64_t{1} << high_bits) - 1);
        Distance high_sum = 0, low_sum = 0;
        for (int b = 0; b < high_bits; ++b) {
          if (set >> b & 1) high_sum += outranking(c, half + b);
        }
        high(c, set) = high_sum;
        if (set < (std::uint64_t{1} << half)) {
          for (int b = 0; b < half; ++b) {
            if (set >> b & 1) low_sum += outranking(c, b);
          }
          low(c, set) = low_sum;
        }
      });
  return t;
}

}  // namespace kollective::kemeny::Impl

#endif
