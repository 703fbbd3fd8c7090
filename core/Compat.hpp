#ifndef KOLLECTIVE_CORE_COMPAT_HPP
#define KOLLECTIVE_CORE_COMPAT_HPP

/// \file Compat.hpp
/// The only place with Kokkos-version guards: Kollective compiles on Kokkos 3.4.01 (Debian's
/// trilinos sources) and on Kokkos 4.x.

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace kollective {

/// Kokkos 3.4 has no Kokkos::min/max usable on device; these work everywhere.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION constexpr T min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION constexpr T max(T a, T b) {
  return a < b ? b : a;
}

/// Math functions moved from Kokkos::Experimental to Kokkos in 3.7.
#if KOKKOS_VERSION >= 30700
namespace kmath = ::Kokkos;
#else
namespace kmath = ::Kokkos::Experimental;
#endif

/// Device-side printf: Kokkos::printf from 4.2, plain printf before.
#if KOKKOS_VERSION >= 40200
#define KOLLECTIVE_DEVICE_PRINTF(...) ::Kokkos::printf(__VA_ARGS__)
#else
#define KOLLECTIVE_DEVICE_PRINTF(...) printf(__VA_ARGS__)
#endif

/// Full unrolling of a short fixed-trip loop, so register arrays stay in registers.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define KOLLECTIVE_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__)
#define KOLLECTIVE_UNROLL _Pragma("GCC unroll 16")
#else
#define KOLLECTIVE_UNROLL
#endif

/// True when the execution space runs on the host (team sizes, scratch strategy).
template <class ExecSpace>
inline constexpr bool runs_on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                               typename ExecSpace::memory_space>::accessible;

/// "3.4.1" style version of the Kokkos in use.
inline std::string kokkos_version_string() {
  constexpr int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

/// Named profiling region (available in every supported version; wrapped so call sites agree).
struct ProfilingRegion {
  explicit ProfilingRegion(const std::string& name) {
    Kokkos::Profiling::pushRegion(name);
  }
  ~ProfilingRegion() { Kokkos::Profiling::popRegion(); }
  ProfilingRegion(const ProfilingRegion&) = delete;
  ProfilingRegion& operator=(const ProfilingRegion&) = delete;
};

}  // namespace kollective

#endif
