#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_DP_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_DP_IMPL_HPP

/// \file KemenyDP_Impl.hpp
/// Shared pieces of the subset DP kernels. Do not include directly.

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

using subsets::saturating_add;
using subsets::unrank_colex;

}  // namespace kollective::kemeny::Impl

#endif
