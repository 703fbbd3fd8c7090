#ifndef KOLLECTIVE_CORE_COMM_MPI_HPP
#define KOLLECTIVE_CORE_COMM_MPI_HPP

/// \file Mpi.hpp
/// The caller's MPI communicator as a comm::Communicator, for solves shared by its ranks. Include
/// it from MPI programs only; a Kollective built without MPI refuses it.

#include <mpi.h>

#include "kollective/core/comm/Communicator.hpp"

namespace kollective::comm {

/// The ranks of `comm`, in its order: a collective over them (Kollective works on a duplicate, so
/// its messages never meet the caller's; the duplicate is freed with the last copy, unless MPI
/// has finalized). `nccl`, optional, is an NCCL communicator over the same ranks in the same
/// order (one GPU each), used for device memory; without it, one is made at the first device
/// collective. Call it after MPI_Init, and let the last copy go before MPI_Finalize.
inline Communicator from_mpi(MPI_Comm comm, ncclComm* nccl = nullptr) {
  return Communicator::from_mpi_handle(static_cast<std::int64_t>(MPI_Comm_c2f(comm)), nccl);
}

}  // namespace kollective::comm

#endif
