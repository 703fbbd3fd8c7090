#ifndef KOLLECTIVE_PYTHON_BINDINGS_HPP
#define KOLLECTIVE_PYTHON_BINDINGS_HPP

/// \file Bindings.hpp
/// The Python extension `kollective._kollective`: thin functions over the algorithms' solvers on
/// Kokkos' default execution space. They take numpy arrays and plain values, return dicts of
/// plain values and numpy arrays, and raise kollective.Error with the CLI's messages; the Python
/// package (python/kollective) shapes them into result objects.

#include <Kokkos_Core.hpp>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "kollective/core/Interrupt.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace kollective::python {

namespace nb = nanobind;

/// A numpy array that owns `values` (moved, not copied), of the given shape.
template <class T>
nb::ndarray<nb::numpy, T> to_numpy(std::vector<T>&& values, std::initializer_list<std::size_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(owned->data(), shape, owner);
}

/// A read-only C-contiguous host array of T with `dims` dimensions, as numpy passes them.
template <class T, std::size_t dims>
using HostArray = nb::ndarray<const T, nb::ndim<dims>, nb::c_contig, nb::device::cpu>;

/// Fails unless Kokkos can run here: it is initialized, not yet finalized, and this is not a
/// process forked from one that started it (its threads are not in the child).
void require_kokkos();

/// What a solve returned, and its seconds: the library's call alone, without the Python layer.
template <class Result>
struct Timed {
  Result result;
  double seconds = 0;
};

/// On Python's main thread (where its signal handlers run), a check for the solve's interruption
/// points that raises a pending signal (KeyboardInterrupt on Ctrl-C) as a C++ exception ending
/// the solve, looking at most every 50 ms (it takes the GIL); elsewhere none. Needs the GIL.
std::function<void()> signal_check();

/// Runs `solve` where Kokkos can run (require_kokkos), without the GIL, and times it; Ctrl-C
/// ends it at its next interruption point (kollective/core/Interrupt.hpp).
template <class Solve>
auto solve_timed(Solve&& solve) {
  require_kokkos();
  const InterruptCheck on_signal(signal_check());
  nb::gil_scoped_release unlocked;
  Kokkos::Timer timer;
  Timed<decltype(solve())> timed{solve()};
  timed.seconds = timer.seconds();
  return timed;
}

void bind_elections(nb::module_& m);  ///< profiles, the pairwise matrix, Schulze, Kemeny
void bind_coalition(nb::module_& m);
void bind_ranksvm(nb::module_& m);

}  // namespace kollective::python

#endif
