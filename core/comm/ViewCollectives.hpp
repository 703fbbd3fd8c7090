#ifndef KOLLECTIVE_CORE_COMM_VIEWCOLLECTIVES_HPP
#define KOLLECTIVE_CORE_COMM_VIEWCOLLECTIVES_HPP

/// \file ViewCollectives.hpp
/// Collectives over memory that Kokkos kernels write: NCCL for CUDA memory, queued on the
/// execution space's stream; MPI for host memory, after the space's work has finished.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/comm/Communicator.hpp"

namespace kollective::comm {

/// `data` holds size() parts of `part_elements` each; afterwards every rank has every rank's
/// part (rank r's at r * part_elements). Later work on `space` sees the result.
template <class ExecSpace, class T>
void allgather_parts(const ExecSpace& space, T* data, std::size_t part_elements) {
  if (size() == 1) return;
  using Memory = typename ExecSpace::memory_space;
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
  void* stream = nullptr;
  if constexpr (on_host) {
    space.fence("Kollective::comm::allgather_parts");
  } else {
#ifdef KOKKOS_ENABLE_CUDA
    stream = space.cuda_stream();
#endif
  }
  allgather_in_place(data, part_elements * sizeof(T), !on_host, stream);
}

}  // namespace kollective::comm

#endif
