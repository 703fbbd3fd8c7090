#ifndef KOLLECTIVE_CORE_KOKKOS_EXT_COMPAT_HPP
#define KOLLECTIVE_CORE_KOKKOS_EXT_COMPAT_HPP

/// \file Compat.hpp
/// With core/kokkos_ext/Atomics.hpp, the only place that knows Kokkos versions and what Kokkos
/// lacks. Kollective needs Kokkos 4.6.01 or later (the
/// bootstrap builds 4.6.01); it uses Kokkos' own min/max, bit operations, profiling regions and
/// printf directly.

#include <Kokkos_Core.hpp>

static_assert(KOKKOS_VERSION >= 40601, "Kollective needs Kokkos 4.6.01 or later");

#include <cstdint>
#include <string>
#include <type_traits>

namespace kollective {

/// Full unrolling of a short fixed-trip loop, so register arrays stay in registers.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define KOLLECTIVE_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__)
#define KOLLECTIVE_UNROLL _Pragma("GCC unroll 16")
#else
#define KOLLECTIVE_UNROLL
#endif

/// A range policy with 64-bit indices. Kokkos' default index type is the space's size_type,
/// 32-bit unsigned on CUDA, which wraps a range of 2^32 or more (the coalitions of 33 agents).
template <class ExecSpace, class... Traits>
using Range64 = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, Traits...>;

/// True when the execution space runs on the host (team sizes, scratch strategy, time models):
/// it reads host memory. Asked of the space, not of its memory, which CUDA's UVM makes readable
/// from the host too.
template <class ExecSpace>
inline constexpr bool runs_on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

/// Where a solve on `space` works on host memory: `space` itself where it runs on the host (a
/// Serial solve stays serial), else the default host space.
template <class ExecSpace>
auto host_space_for(const ExecSpace& space) {
  if constexpr (runs_on_host<ExecSpace>) {
    return space;
  } else {
    return Kokkos::DefaultHostExecutionSpace();
  }
}

/// Kokkos 4.6 with its mdspan-based View: the default constructor of SharedAllocationTracker is
/// constexpr, which GCC 12.2 to 12.5 could skip (Kokkos issue 8187, fixed in 4.7.00); the
/// bootstrap's patch works around it and tests/core/TestKokkosBuild.cpp checks that it did.
#if defined(KOKKOS_ENABLE_IMPL_MDSPAN) && KOKKOS_VERSION < 40700
#define KOLLECTIVE_KOKKOS_HAS_ISSUE_8187 1
#else
#define KOLLECTIVE_KOKKOS_HAS_ISSUE_8187 0
#endif

/// "4.6.1" style version of the Kokkos in use.
inline std::string kokkos_version_string() {
  constexpr int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace kollective

#endif
