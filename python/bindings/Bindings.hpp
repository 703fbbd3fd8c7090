#ifndef KOLLECTIVE_PYTHON_BINDINGS_HPP
#define KOLLECTIVE_PYTHON_BINDINGS_HPP

/// \file Bindings.hpp
/// The Python extension `kollective._kollective`: thin functions over the algorithms' solvers on
/// Kokkos' default execution space. They take numpy arrays and plain values, return dicts of
/// plain values and numpy arrays, and raise kollective.Error with the CLI's messages; the Python
/// package (python/kollective) shapes them into result objects.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
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

void bind_elections(nb::module_& m);  ///< profiles, the pairwise matrix, Schulze, Kemeny
void bind_coalition(nb::module_& m);
void bind_ranksvm(nb::module_& m);

}  // namespace kollective::python

#endif
