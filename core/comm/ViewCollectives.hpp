#ifndef KOLLECTIVE_CORE_COMM_VIEWCOLLECTIVES_HPP
#define KOLLECTIVE_CORE_COMM_VIEWCOLLECTIVES_HPP

/// \file ViewCollectives.hpp
/// Collectives over memory that Kokkos kernels write: NCCL for CUDA memory, queued on the
/// execution space's stream; MPI for host memory, after the space's work has finished.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <vector>

#include "kollective/core/comm/Communicator.hpp"

namespace kollective::comm {

namespace Impl {
/// Whether the space's memory is host memory (MPI) rather than device memory (NCCL).
template <class ExecSpace>
constexpr bool on_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}
/// The CUDA stream that device collectives queue on; for host memory, waits for the space's
/// work instead (MPI reads the memory at once) and returns null.
template <class ExecSpace>
void* stream_for(const ExecSpace& space) {
  if constexpr (on_host<ExecSpace>()) {
    space.fence("Kollective::comm: host memory before MPI");
    return nullptr;
  } else {
#ifdef KOKKOS_ENABLE_CUDA
    return space.cuda_stream();
#else
    return nullptr;
#endif
  }
}
}  // namespace Impl

/// `data` holds comm.size() parts of `part_elements` each; afterwards every rank has every rank's
/// part (rank r's at r * part_elements). Later work on `space` sees the result.
template <class ExecSpace, class T>
void allgather_parts(const ExecSpace& space, const Communicator& comm, T* data, std::size_t part_elements) {
  if (comm.size() == 1) return;
  comm.allgather_in_place(data, part_elements * sizeof(T), !Impl::on_host<ExecSpace>(), Impl::stream_for(space));
}

/// `count` elements at `data` on rank `root` reach every rank's `data`. Later work on `space`
/// sees the result.
template <class ExecSpace, class T>
void broadcast_part(const ExecSpace& space, const Communicator& comm, T* data, std::size_t count, int root) {
  if (comm.size() == 1) return;
  comm.broadcast_in_place(data, count * sizeof(T), root, !Impl::on_host<ExecSpace>(), Impl::stream_for(space));
}

/// Posts every transfer at once (see Communicator::exchange) after the work queued on `space`; later
/// work on `space` sees what arrived.
template <class ExecSpace>
void exchange_parts(const ExecSpace& space, const Communicator& comm, const std::vector<Transfer>& sends,
                    const std::vector<Transfer>& receives) {
  if (sends.empty() && receives.empty()) return;
  comm.exchange(sends, receives, !Impl::on_host<ExecSpace>(), Impl::stream_for(space));
}

}  // namespace kollective::comm

#endif
