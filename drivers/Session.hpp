#ifndef KOLLECTIVE_DRIVERS_SESSION_HPP
#define KOLLECTIVE_DRIVERS_SESSION_HPP

/// \file Session.hpp
/// The driver's ranks: MPI for the lifetime of the program (where the build has it) and the
/// communicator of every rank, which the driver passes to the solves it shares. The library
/// itself never names MPI_COMM_WORLD.

#include <string>

#include "kollective/core/comm/Communicator.hpp"

namespace kollective::driver {

/// Starts MPI (where built with it) and the run's ranks; ends them. Create one in main() before
/// Kokkos starts.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

/// Every rank of the run (MPI_COMM_WORLD); this process alone without MPI or outside a Session.
const comm::Communicator& world();

/// Ends every rank with this rank's message (when one rank fails and the others could wait for it
/// forever): prints "rank R: message" to stderr first.
[[noreturn]] void abort_all(const std::string& message, int exit_code = 1);

}  // namespace kollective::driver

#endif
