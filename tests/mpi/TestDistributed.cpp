#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "algorithms/coalition/Coalition.hpp"
#include "algorithms/coalition/CoalitionGenerators.hpp"
#include "algorithms/coalition/CoalitionMetrics.hpp"
#include "algorithms/coalition/CoalitionReference.hpp"
#include "core/comm/Communicator.hpp"
#include "core/comm/ViewCollectives.hpp"

// Run under `mpirun -np P` (P = 1, 2, 3, ...): solves shared by every rank must equal the
// single-rank solve bit for bit, and the serial references.
namespace comm = kollective::comm;
namespace coalition = kollective::coalition;
using Space = Kokkos::DefaultExecutionSpace;

/// Fills this rank's part (a device lambda cannot live in a test body under nvcc).
void fill_own_part(const Kokkos::View<std::int64_t*, Space::memory_space>& parts, std::size_t part) {
  const std::int64_t rank = comm::rank();
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, part), KOKKOS_LAMBDA(const int i) { parts(rank * part + i) = rank * 7919 + i; });
}

TEST(distributed, allgather_parts_of_a_view) {
  const std::size_t part = 1000;
  Kokkos::View<std::int64_t*, Space::memory_space> parts("parts", part * comm::size());
  fill_own_part(parts, part);
  comm::allgather_parts(Space(), parts.data(), part);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parts);
  for (int r = 0; r < comm::size(); ++r) {
    for (std::size_t i = 0; i < part; i += 97) ASSERT_EQ(host(r * part + i), r * 7919 + std::int64_t(i)) << r;
  }
}

template <class Value>
void expect_shared_equals_alone(const coalition::Game& game, coalition::Method method) {
  const coalition::Result alone = coalition::solve<Value>(Space(), game, {method, false});
  const coalition::Result shared = coalition::solve<Value>(Space(), game, {method, true});
  const std::string what = "n=" + std::to_string(game.agents) + " " + coalition::to_string(method);
  EXPECT_EQ(shared.value, alone.value) << what;  // bit for bit
  EXPECT_EQ(shared.structure, alone.structure) << what;
  EXPECT_EQ(shared.ranks, comm::size()) << what;
  coalition::check_partition(game.agents, shared.structure);
  if (method == coalition::Method::dp && sizeof(Value) == 8) {
    EXPECT_EQ(shared.value, coalition::serial_dp(game)) << what;
  }
  if (game.agents <= coalition::brute_force_max_agents) {
    coalition::verify(game, shared, sizeof(Value) == 4);
  }
}

TEST(distributed, coalition_layers_shared_by_every_rank_equal_one_rank) {
  // n = 6..14: from one high layer (fewer blocks than ranks) to nine, with shares of 1 to 42 blocks.
  for (int n = 1; n <= 14; n += (n < 6 ? 5 : 1)) {
    for (const coalition::Method method : {coalition::Method::dp, coalition::Method::idp}) {
      expect_shared_equals_alone<double>(coalition::uniform_game(n, 300 + n), method);
      expect_shared_equals_alone<float>(coalition::idpg_benchmark(n, 1234), method);
    }
  }
}

int main(int argc, char** argv) {
  comm::Session session(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
