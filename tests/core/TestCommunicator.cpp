#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/drivers/Session.hpp"

#ifdef KOLLECTIVE_HAVE_MPI
#include <mpi.h>

#include "kollective/core/comm/Mpi.hpp"
#endif

// Run under `mpirun -np P` (P = 1, 2, 3, ...): every rank checks the same outcomes.
namespace comm = kollective::comm;
using kollective::driver::world;

TEST(communicator, ranks_are_numbered_in_order) {
  const std::vector<std::string> names = world().allgather(std::to_string(world().rank()));
  ASSERT_EQ(static_cast<int>(names.size()), world().size());
  for (int r = 0; r < world().size(); ++r) EXPECT_EQ(names[r], std::to_string(r));
  EXPECT_GE(world().local_rank(), 0);
  EXPECT_LT(world().local_rank(), world().size());
}

TEST(communicator, host_memory_checks_give_each_rank_of_a_node_its_share) {
  EXPECT_EQ(world().local_size(), world().size());  // these tests run on one node
  const std::int64_t available = kollective::host_meminfo_bytes("MemAvailable");
  if (available <= 0) GTEST_SKIP() << "this system has no MemAvailable";
  const std::int64_t most = available / 10 * 7;  // fits one rank, not the share of one of two
  if (world().local_size() == 1) {
    EXPECT_NO_THROW(kollective::require_host_memory(most, "seven tenths of the host"));
    return;
  }
  try {
    kollective::require_host_memory(most, "seven tenths of the host");
    ADD_FAILURE() << "each of " << world().local_size() << " ranks was allowed 70% of the host's memory";
  } catch (const kollective::Error& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(world().local_size()) + " ranks run on this node"),
              std::string::npos)
        << error.what();
  }
}

TEST(communicator, integer_reductions_are_exact) {
  const std::int64_t r = world().rank(), p = world().size();
  std::vector<std::int64_t> values = {r + 1, -r, std::int64_t{1} << 40};
  world().allreduce_sum(values);
  EXPECT_EQ(values, (std::vector<std::int64_t>{p * (p + 1) / 2, -p * (p - 1) / 2, p << 40}));
  std::vector<std::int64_t> largest = {r, -r};
  world().allreduce_max(largest);
  EXPECT_EQ(largest, (std::vector<std::int64_t>{p - 1, 0}));
}

TEST(communicator, a_condition_holds_on_every_rank_only_where_no_rank_lacks_it) {
  EXPECT_TRUE(world().holds_on_every_rank(true));
  EXPECT_FALSE(world().holds_on_every_rank(false));
  // Only the last rank lacks it: every rank must hear so (one rank: it is rank 0, and lacks it).
  EXPECT_FALSE(world().holds_on_every_rank(world().rank() != world().size() - 1));
}

TEST(communicator, double_sums_follow_rank_order) {
  auto contribution = [](int r) { return std::vector<double>{0.1 * (r + 1), 1e16 * (r % 2 ? -1 : 1), 1.0 / (r + 3)}; };
  std::vector<double> values = contribution(world().rank());
  world().allreduce_sum(values);
  std::vector<double> expected(3, 0.0);
  for (int r = 0; r < world().size(); ++r) {
    const std::vector<double> part = contribution(r);
    for (int k = 0; k < 3; ++k) expected[k] += part[k];
  }
  EXPECT_EQ(values, expected);  // bit for bit: the same additions in the same order on every rank
}

TEST(communicator, broadcasts_come_from_the_root) {
  const int root = world().size() - 1;
  std::vector<std::int64_t> values = {world().rank(), 7};
  if (world().rank() == root) values.push_back(42);
  world().broadcast(values, root);
  EXPECT_EQ(values, (std::vector<std::int64_t>{root, 7, 42}));
  std::string text = world().rank() == 0 ? "from rank 0, with a comma, and \"quotes\"" : "";
  world().broadcast(text, 0);
  EXPECT_EQ(text, "from rank 0, with a comma, and \"quotes\"");
  world().barrier();
}

TEST(communicator, the_default_is_this_process_alone) {
  const comm::Communicator alone;
  EXPECT_EQ(alone.rank(), 0);
  EXPECT_EQ(alone.size(), 1);
  std::vector<std::int64_t> values = {5, -3};
  alone.allreduce_sum(values);
  EXPECT_EQ(values, (std::vector<std::int64_t>{5, -3}));
  EXPECT_EQ(alone.allgather("mine"), std::vector<std::string>{"mine"});
  EXPECT_FALSE(alone.holds_on_every_rank(false));
}

#ifdef KOLLECTIVE_HAVE_MPI
TEST(communicator, a_split_communicator_reaches_its_group_only) {
  // Even and odd ranks of the world: each group gathers its own ranks, in order, and sums apart.
  const int group = world().rank() % 2;
  MPI_Comm split = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD, group, world().rank(), &split), MPI_SUCCESS);
  {
    const comm::Communicator ranks = comm::from_mpi(split);
    const std::vector<std::string> names = ranks.allgather(std::to_string(world().rank()));
    ASSERT_EQ(static_cast<int>(names.size()), ranks.size());
    for (int r = 0; r < ranks.size(); ++r) EXPECT_EQ(names[r], std::to_string(2 * r + group));
    std::vector<std::int64_t> sum = {world().rank()};
    ranks.allreduce_sum(sum);
    std::int64_t expected = 0;
    for (int r = group; r < world().size(); r += 2) expected += r;
    EXPECT_EQ(sum[0], expected);
  }
  MPI_Comm_free(&split);
}
#endif

int main(int argc, char** argv) {
  kollective::driver::Session session(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
