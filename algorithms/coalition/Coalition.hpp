#ifndef KOLLECTIVE_ALGORITHMS_COALITION_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_HPP

/// \file Coalition.hpp
/// Optimal coalition structures by dynamic programming over subsets on the device:
/// f(C) = max(v(C), max over splits {C', C \ C'} of f(C') + f(C \ C')), by coalition size.
/// DP evaluates every split; IDP (Rahwan & Jennings) only the splits with sizes (c', c'') in
/// dep(c): c' >= c'', c' + c'' = c and (c' <= n - c or c = n), which still gives the optimum for the
/// grand coalition.

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "algorithms/coalition/CoalitionTypes.hpp"
#include "algorithms/coalition/impl/Coalition_Impl.hpp"

namespace kollective::coalition {

/// Solves with values of type Value (double or float) on the device. `values`: a Game, or a
/// caller's array of 2^n values read in place (Values(n, pointer)), checked by validate_values.
template <class Value, class ExecSpace>
Result solve(const ExecSpace& space, Values values, const Options& options = {}) {
  static_assert(std::is_same<Value, double>::value || std::is_same<Value, float>::value, "double or float values");
  return Impl::solve<Value>(space, values, options);
}

/// Splits the device solver evaluates (DP: split_count; IDP: IDP's splits and some more).
inline double evaluated_splits(int n, Method method) { return Impl::evaluated_splits(n, method == Method::idp); }
/// Bytes the solver's high splits read as blocks (the traffic the caches and memory serve).
inline double block_read_bytes(int n, Method method, int value_bytes) {
  return Impl::block_read_bytes(n, method == Method::idp, value_bytes);
}

}  // namespace kollective::coalition

#endif
