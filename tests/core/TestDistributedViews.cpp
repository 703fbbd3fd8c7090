#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/comm/ViewCollectives.hpp"
#include "kollective/tests/DistributedHelpers.hpp"

/// Fills this rank's part (a device lambda cannot live in a test body under nvcc).
void fill_own_part(const Kokkos::View<std::int64_t*, Space::memory_space>& parts, std::size_t part) {
  const std::int64_t rank = world().rank();
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, part), KOKKOS_LAMBDA(const int i) { parts(rank * part + i) = rank * 7919 + i; });
}

TEST(distributed, allgather_parts_of_a_view) {
  const std::size_t part = 1000;
  Kokkos::View<std::int64_t*, Space::memory_space> parts("parts", part * world().size());
  fill_own_part(parts, part);
  comm::allgather_parts(Space(), world(), parts.data(), part);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parts);
  for (int r = 0; r < world().size(); ++r) {
    for (std::size_t i = 0; i < part; i += 97) ASSERT_EQ(host(r * part + i), r * 7919 + std::int64_t(i)) << r;
  }
}
