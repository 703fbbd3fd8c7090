#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_WORKSPACE_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_WORKSPACE_IMPL_HPP

/// \file KemenyWorkspace_Impl.hpp
/// Memory that one subset DP leaves to the next. Do not include directly: include
/// algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kollective::kemeny {

/// The subset DP's largest buffers (best and ways of every set held, and the layers that ranks
/// trade), kept from one solve to the next: allocating and freeing them costs tens of
/// milliseconds a solve at n = 32, a tenth of the solve on an H200
/// (perf/results/2026-11-26_h200x2_kemeny_workspace.md). A solve given a workspace reuses what it
/// holds when its DP has the same shape (alternatives, distance width, ranks); otherwise it frees
/// that before checking memory and allocating anew. The memory stays held until release() or
/// the workspace's end.
template <class MemorySpace>
class Workspace {
 public:
  /// Frees what it holds.
  void release() { *this = Workspace(); }
  /// Bytes it holds.
  std::size_t bytes() const { return arena_.extent(0); }

  // For the subset DP (KemenySubsetDP_Impl.hpp). A shape is what makes two DPs' buffers alike.

  /// Whether it was given `shape`.
  bool holds(const std::vector<std::int64_t>& shape) const { return shape == shape_; }
  /// Takes `shape`, with `buffers` room for each traded layer (see Layout), freeing what it held;
  /// reserve() allocates.
  void adopt(const std::vector<std::int64_t>& shape, int buffers) {
    release();
    shape_ = shape;
    buffers_ = buffers;
  }
  int buffers() const { return buffers_; }
  /// Segments of these sizes, allocated in one piece unless held already.
  void reserve(const std::vector<std::size_t>& segment_bytes) {
    if (segment_bytes == sizes_ && bytes() > 0) return;
    constexpr std::size_t alignment = 256;
    offsets_.clear();
    std::size_t total = 0;
    for (const std::size_t size : segment_bytes) {
      offsets_.push_back(total);
      total += (size + alignment - 1) / alignment * alignment;
    }
    arena_ = {};  // before the new one, so that the two are never held at once
    arena_ = decltype(arena_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Kollective::Kemeny::workspace"), total);
    sizes_ = segment_bytes;
  }
  /// Segment i as values of T (unmanaged: valid while the workspace holds it).
  template <class T>
  Kokkos::View<T*, MemorySpace> segment(std::size_t i) const {
    return Kokkos::View<T*, MemorySpace>(reinterpret_cast<T*>(arena_.data() + offsets_[i]), sizes_[i] / sizeof(T));
  }

 private:
  Kokkos::View<unsigned char*, MemorySpace> arena_;
  std::vector<std::int64_t> shape_;
  std::vector<std::size_t> sizes_, offsets_;
  int buffers_ = 1;
};

}  // namespace kollective::kemeny

#endif
