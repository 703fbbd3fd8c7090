#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_DP_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_DP_IMPL_HPP

/// \file KemenyDP_Impl.hpp
/// Shared pieces of the subset DP kernels. Do not include directly.

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

/// C(a, b) for a, b <= n, on the device.
template <class MemorySpace>
using BinomialView = Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, MemorySpace>;

using subsets::lowest_bit;
using subsets::saturating_add;
using subsets::unrank_colex;

}  // namespace kollective::kemeny::Impl

#endif
