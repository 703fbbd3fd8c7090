#ifndef KOLLECTIVE_CORE_KOKKOS_EXT_ATOMICS_HPP
#define KOLLECTIVE_CORE_KOKKOS_EXT_ATOMICS_HPP

/// \file Atomics.hpp
/// A relaxed load and an atomic max/min that compute-sanitizer and ThreadSanitizer both accept.

#include <Kokkos_Core.hpp>

namespace kollective {

/// `*source`, read with relaxed atomicity while other threads update it atomically: on the GPU a
/// volatile read (an aligned word load is atomic there), on the host a GNU atomic load, which
/// ThreadSanitizer understands.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T relaxed_load(const T* source) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile T*>(source);
#else
  T seen;
  __atomic_load(source, &seen, __ATOMIC_RELAXED);
  return seen;
#endif
}

/// `*dest = max(*dest, value)` (Larger) or `min` (!Larger), atomically, for a value that only
/// moves one way during a launch. A relaxed load first skips the atomic where `value` cannot win:
/// a stale load lies behind the current value, so skipping on it is still right, and the result is
/// the same extremum in any order. On the GPU the update is Kokkos' atomic max/min; on the host a
/// GNU compare-exchange loop, which ThreadSanitizer understands (Kokkos' host atomic max/min
/// started with a plain read in 3.4).
template <bool Larger, class T>
KOKKOS_FORCEINLINE_FUNCTION void atomic_extremum(T* dest, T value) {
#if defined(__CUDA_ARCH__)
  const T seen = relaxed_load(dest);
  if (Larger ? value > seen : value < seen) {
    if constexpr (Larger) {
      Kokkos::atomic_fetch_max(dest, value);
    } else {
      Kokkos::atomic_fetch_min(dest, value);
    }
  }
#else
  T seen = relaxed_load(dest);
  while ((Larger ? value > seen : value < seen) &&
         !__atomic_compare_exchange(dest, &seen, &value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

}  // namespace kollective

#endif
