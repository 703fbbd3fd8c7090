#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/drivers/Session.hpp"

#ifdef KOLLECTIVE_HAVE_MPI
#include <mpi.h>

#include "kollective/core/comm/Mpi.hpp"
#endif

// Solves shared by the groups of a communicator split from the caller's, at once (issue #38):
// under `mpirun -np P`, part of kollective_tests_distributed.
namespace comm = kollective::comm;
namespace coalition = kollective::coalition;
namespace kemeny = kollective::kemeny;
namespace preferences = kollective::preferences;
namespace schulze = kollective::schulze;
using kollective::driver::world;
using Space = Kokkos::DefaultExecutionSpace;

namespace {

#ifdef KOLLECTIVE_HAVE_MPI
/// Group `group`'s solves over its ranks `ranks`: each of the four problems, shared, must equal
/// this rank's solve alone, and every rank of the group must hold the same answers.
void expect_group_solves_equal_alone(const comm::Communicator& ranks, int group) {
  const std::string what = "group " + std::to_string(group) + " of " + std::to_string(ranks.size()) + " ranks";
  const Space space;
  const auto profile = preferences::impartial_culture(12, 7, 100 + group);  // each group its own input
  const auto counts = preferences::pairwise_reference(profile);
  const auto doubled = preferences::to_device(space, counts);
  schulze::Options schulze_alone;
  schulze_alone.keep_paths = true;
  schulze::Options schulze_shared = schulze_alone;
  schulze_shared.communicator = ranks;
  const schulze::Result schulze_result = schulze::solve(space, doubled, schulze_shared);
  EXPECT_EQ(schulze_result.paths, schulze::solve(space, doubled, schulze_alone).paths) << what;
  EXPECT_EQ(schulze_result.ranks, ranks.size()) << what;
  Kokkos::View<std::uint32_t**, Space::memory_space> paths("paths", 12, 12);  // gathered on every rank
  schulze_shared.keep_paths = false;
  schulze::solve(space, doubled, paths, schulze_shared);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), paths);
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) EXPECT_EQ(host(i, j), schulze_result.path(i, j)) << what;
  }

  kemeny::Options kemeny_alone;
  kemeny_alone.method = kemeny::Method::dp;
  kemeny::Options kemeny_shared = kemeny_alone;
  kemeny_shared.communicator = ranks;
  const kemeny::Result kemeny_result = kemeny::solve(space, counts, kemeny_shared);
  const kemeny::Result kemeny_reference = kemeny::solve(space, counts, kemeny_alone);
  EXPECT_EQ(kemeny_result.distance, kemeny_reference.distance) << what;
  EXPECT_EQ(kemeny_result.optima, kemeny_reference.optima) << what;
  EXPECT_EQ(kemeny_result.ranks, ranks.size()) << what;  // 1 or 2 ranks: every one takes part

  const coalition::Game game = coalition::uniform_game(11, 40 + group);
  coalition::Options coalition_shared;
  coalition_shared.communicator = ranks;
  const coalition::Result coalition_result = coalition::solve(space, game, coalition_shared);
  EXPECT_EQ(coalition_result.value, coalition::solve(space, game, {}).value) << what;
  EXPECT_EQ(coalition_result.ranks, ranks.size()) << what;

  // The group's ranks agree with each other.
  const std::string mine = std::to_string(kemeny_result.distance) + " " + std::to_string(coalition_result.value);
  for (const std::string& other : ranks.allgather(mine)) EXPECT_EQ(other, mine) << what;
}
#endif

}  // namespace

TEST(distributed, two_groups_of_ranks_share_different_solves_at_once) {
#ifdef KOLLECTIVE_HAVE_MPI
  // Ranks 0, 2, ... and 1, 3, ...: each group shares its own solves while the other group shares
  // others, on communicators split from the caller's (on 3 ranks, groups of 2 and 1).
  const int group = world().rank() % 2;
  MPI_Comm split = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD, group, world().rank(), &split), MPI_SUCCESS);
  {
    const comm::Communicator ranks = comm::from_mpi(split);
    EXPECT_EQ(ranks.size(), (world().size() + 1 - group) / 2);
    EXPECT_EQ(ranks.rank(), world().rank() / 2);
    expect_group_solves_equal_alone(ranks, group);
  }
  MPI_Comm_free(&split);
#else
  GTEST_SKIP() << "this build has no MPI";
#endif
}
