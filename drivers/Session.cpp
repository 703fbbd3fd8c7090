#include "kollective/drivers/Session.hpp"

#include <cstdio>
#include <cstdlib>

#include "kollective/core/Memory.hpp"

#ifdef KOLLECTIVE_HAVE_MPI
#include <mpi.h>

#include "kollective/core/comm/Mpi.hpp"
#endif

namespace kollective::driver {

namespace {
comm::Communicator world_ranks;  ///< this process alone until a Session starts MPI
}  // namespace

const comm::Communicator& world() { return world_ranks; }

#ifdef KOLLECTIVE_HAVE_MPI

Session::Session(int& argc, char**& argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    std::fprintf(stderr, "kollective: MPI_Init failed\n");
    std::exit(1);
  }
  world_ranks = comm::from_mpi(MPI_COMM_WORLD);
  set_processes_per_node(world_ranks.local_size());
}

Session::~Session() {
  world_ranks = comm::Communicator();  // frees its MPI and NCCL communicators before MPI ends
  MPI_Finalize();
}

void abort_all(const std::string& message, int exit_code) {
  std::fprintf(stderr, "rank %d: %s\n", world_ranks.rank(), message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::exit(exit_code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

#else

Session::Session(int&, char**&) {}
Session::~Session() = default;

void abort_all(const std::string& message, int exit_code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::exit(exit_code);
}

#endif

}  // namespace kollective::driver
