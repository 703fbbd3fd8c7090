#ifndef KOLLECTIVE_TESTS_DISTRIBUTED_HELPERS_HPP
#define KOLLECTIVE_TESTS_DISTRIBUTED_HELPERS_HPP

/// What the multi-rank tests share (run under `mpirun -np P`, P = 1, 2, 3, ...: solves shared by
/// every rank must equal the single-rank solve bit for bit, and the serial references): the
/// world's ranks, the execution space, the namespaces.

#include <Kokkos_Core.hpp>

#include "kollective/drivers/Session.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective {  // the namespaces a test file's includes may not have opened
namespace coalition {}
namespace kemeny {}
namespace ranksvm {}
namespace schulze {}
}  // namespace kollective

namespace comm = kollective::comm;
using kollective::driver::world;
namespace coalition = kollective::coalition;
namespace kemeny = kollective::kemeny;
namespace preferences = kollective::preferences;
namespace ranksvm = kollective::ranksvm;
namespace schulze = kollective::schulze;
using Space = Kokkos::DefaultExecutionSpace;

#endif
