#ifndef KOLLECTIVE_ALGORITHMS_COALITION_UPLOAD_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_UPLOAD_IMPL_HPP

/// \file CoalitionUpload_Impl.hpp
/// The coalition values onto the device, in the solver's precision. Do not include directly:
/// include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"

namespace kollective::coalition::Impl {

/// Entries of the device buffer through which upload_values converts the values.
constexpr std::uint64_t upload_chunk = std::uint64_t{1} << 24;

/// The values in the memory of `space`, copied once (read in place where that is the host's).
template <class ExecSpace>
Kokkos::View<const double*, typename ExecSpace::memory_space> values_on(const ExecSpace&, const Values& values) {
  using HostValues = Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  return Kokkos::create_mirror_view_and_copy(typename ExecSpace::memory_space(), HostValues(values.v, values.size()));
}

/// f(offset + i) = source(i) in Value. A named functor, not a lambda: nvcc's host-device lambda
/// wrapper of upload_values<double> jumps to a null host pointer when a second translation unit
/// (the CUDA tests) instantiates it too.
template <class Value, class Memory>
struct ConvertValues {
  Kokkos::View<Value*, Memory> f;
  Kokkos::View<const double*, Memory> source;
  std::uint64_t offset;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { f(offset + i) = static_cast<Value>(source(i)); }
};

/// f = the values in Value, zero past them: from `on_device` (values_on, already there) where
/// given, else copied as they are in chunks to the device and converted there (a host loop over
/// 2^30 values with a zero-filled host mirror costs about a tenth of a GPU solve at n = 30).
template <class Value, class ExecSpace, class Memory>
void upload_values(const ExecSpace& space, Values values, const Kokkos::View<Value*, Memory>& f,
                   Kokkos::View<double*, Memory> staging, const Kokkos::View<const double*, Memory>& on_device = {}) {
  using HostValues = Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  const std::uint64_t count = values.size();
  Kokkos::deep_copy(space, Kokkos::subview(f, std::make_pair(count, f.extent(0))), Value(0));
  if (on_device.data() != nullptr) {
    Kokkos::parallel_for("Kollective::Coalition::values_from_device",
                         Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(count)),
                         ConvertValues<Value, Memory>{f, on_device, 0});
  } else if constexpr (std::is_same_v<Value, double>) {
    Kokkos::deep_copy(space, Kokkos::subview(f, std::make_pair(std::uint64_t{0}, count)), HostValues(values.v, count));
  } else {
    if (staging.data() == nullptr) {
      staging = Kokkos::View<double*, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Coalition::upload"),
          Kokkos::min(count, upload_chunk));
    }
    for (std::uint64_t first = 0; first < count; first += upload_chunk) {
      const std::uint64_t length = Kokkos::min(upload_chunk, count - first);
      const auto chunk = Kokkos::subview(staging, std::make_pair(std::uint64_t{0}, length));
      Kokkos::deep_copy(space, chunk, HostValues(values.v + first, length));
      Kokkos::parallel_for("Kollective::Coalition::convert_values",
                           Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(length)),
                           ConvertValues<Value, Memory>{f, chunk, first});
    }
  }
  space.fence();  // the host values may go once this returns
}

}  // namespace kollective::coalition::Impl

#endif
