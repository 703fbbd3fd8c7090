#ifndef KOLLECTIVE_CORE_KOKKOS_EXT_ATOMICS_HPP
#define KOLLECTIVE_CORE_KOKKOS_EXT_ATOMICS_HPP

/// \file Atomics.hpp
/// An atomic max/min that compute-sanitizer and ThreadSanitizer both accept.

#include <Kokkos_Core.hpp>

namespace kollective {

/// `*dest = max(*dest, value)` (Larger) or `min` (!Larger), atomically, for a value that only
/// moves one way during a launch. A relaxed atomic load first skips the atomic where `value`
/// cannot win: a stale load lies behind the current value, so skipping on it is still right, and
/// the result is the same extremum in any order. On the GPU the load is a volatile read (an
/// aligned word load is atomic there) and the update Kokkos' atomic max/min; on the host both are
/// GNU atomics (a compare-exchange loop), which ThreadSanitizer understands (Kokkos' host atomic
/// max/min started with a plain read in 3.4).
template <bool Larger, class T>
KOKKOS_FORCEINLINE_FUNCTION void atomic_extremum(T* dest, T value) {
#if defined(__CUDA_ARCH__)
  const T seen = *static_cast<volatile T*>(dest);
  if (Larger ? value > seen : value < seen) {
    if constexpr (Larger) {
      Kokkos::atomic_fetch_max(dest, value);
    } else {
      Kokkos::atomic_fetch_min(dest, value);
    }
  }
#else
  T seen;
  __atomic_load(dest, &seen, __ATOMIC_RELAXED);
  while ((Larger ? value > seen : value < seen) &&
         !__atomic_compare_exchange(dest, &seen, &value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

}  // namespace kollective

#endif
