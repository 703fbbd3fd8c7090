#ifndef KOLLECTIVE_CORE_WORKSPACE_HPP
#define KOLLECTIVE_CORE_WORKSPACE_HPP

/// \file Workspace.hpp
/// Memory that one solve leaves to the next: the one pattern by which every algorithm lets a
/// caller reuse its large buffers across solves (kemeny::solve, schulze::solve,
/// coalition::solve take one).

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kollective {

/// A solve's largest buffers in `MemorySpace`, kept from one solve to the next (allocating and
/// freeing them costs tens of milliseconds a solve: for the Kemeny DP at n = 32 on a GPU, about a
/// tenth of the solve). A solve given a workspace reuses what it holds when its buffers have the
/// same shape (the algorithm, its sizes, widths and ranks); otherwise it frees that before
/// checking memory and allocating anew.
/// The memory stays held until release() or the workspace's end. One workspace serves one solve
/// at a time; every rank of a shared solve passes its own, used alike.
template <class MemorySpace>
class Workspace {
 public:
  /// Frees what it holds.
  void release() { *this = Workspace(); }
  /// Bytes it holds.
  std::size_t bytes() const { return arena_.extent(0); }

  // For the solvers. A shape is what makes two solves' buffers alike.

  /// Whether it was given `shape`.
  bool holds(const std::vector<std::int64_t>& shape) const { return shape == shape_; }
  /// Takes `shape` (and `buffers`, a count the solver keeps with it, such as the Kemeny DP's room
  /// for each traded layer), freeing what it held; reserve() allocates.
  void adopt(const std::vector<std::int64_t>& shape, int buffers = 1) {
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
    arena_ = decltype(arena_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Kollective::workspace"), total);
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

}  // namespace kollective

#endif
