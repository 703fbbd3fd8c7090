#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "kollective/drivers/Session.hpp"

// The multi-rank tests' main: MPI (through the driver's session), then Kokkos.
int main(int argc, char** argv) {
  kollective::driver::Session session(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
