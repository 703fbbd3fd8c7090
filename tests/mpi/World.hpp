#ifndef KOLLECTIVE_TESTS_MPI_WORLD_HPP
#define KOLLECTIVE_TESTS_MPI_WORLD_HPP

/// \file World.hpp
/// The test programs' ranks, made as a caller's code makes them: MPI_COMM_WORLD through
/// comm::from_mpi where the build has MPI; else this process alone.

#include "kollective/core/Memory.hpp"
#include "kollective/core/comm/Communicator.hpp"

#ifdef KOLLECTIVE_HAVE_MPI
#include <mpi.h>

#include "kollective/core/comm/Mpi.hpp"
#endif

namespace kollective::test {

inline comm::Communicator& world_ranks() {
  static comm::Communicator ranks;
  return ranks;
}
inline const comm::Communicator& world() { return world_ranks(); }

/// MPI for the test program's lifetime, and world() over its ranks.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv) {
#ifdef KOLLECTIVE_HAVE_MPI
    MPI_Init(&argc, &argv);
    world_ranks() = comm::from_mpi(MPI_COMM_WORLD);
    set_processes_per_node(world().local_size());
#else
    (void)argc;
    (void)argv;
#endif
  }
  ~MpiSession() {
#ifdef KOLLECTIVE_HAVE_MPI
    world_ranks() = comm::Communicator();
    MPI_Finalize();
#endif
  }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

}  // namespace kollective::test

#endif
