#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/comm/Communicator.hpp"

// Run under `mpirun -np P` (P = 1, 2, 3, ...): every rank checks the same outcomes.
namespace comm = kollective::comm;

TEST(communicator, ranks_are_numbered_in_order) {
  const std::vector<std::string> names = comm::allgather(std::to_string(comm::rank()));
  ASSERT_EQ(static_cast<int>(names.size()), comm::size());
  for (int r = 0; r < comm::size(); ++r) EXPECT_EQ(names[r], std::to_string(r));
  EXPECT_GE(comm::local_rank(), 0);
  EXPECT_LT(comm::local_rank(), comm::size());
}

TEST(communicator, host_memory_checks_give_each_rank_of_a_node_its_share) {
  EXPECT_EQ(comm::local_size(), comm::size());  // these tests run on one node
  const std::int64_t available = kollective::host_meminfo_bytes("MemAvailable");
  if (available <= 0) GTEST_SKIP() << "this system has no MemAvailable";
  const std::int64_t most = available / 10 * 7;  // fits one rank, not the share of one of two
  if (comm::local_size() == 1) {
    EXPECT_NO_THROW(kollective::require_host_memory(most, "seven tenths of the host"));
    return;
  }
  try {
    kollective::require_host_memory(most, "seven tenths of the host");
    ADD_FAILURE() << "each of " << comm::local_size() << " ranks was allowed 70% of the host's memory";
  } catch (const kollective::Error& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(comm::local_size()) + " ranks run on this node"),
              std::string::npos)
        << error.what();
  }
}

TEST(communicator, integer_reductions_are_exact) {
  const std::int64_t r = comm::rank(), p = comm::size();
  std::vector<std::int64_t> values = {r + 1, -r, std::int64_t{1} << 40};
  comm::allreduce_sum(values);
  EXPECT_EQ(values, (std::vector<std::int64_t>{p * (p + 1) / 2, -p * (p - 1) / 2, p << 40}));
  std::vector<std::int64_t> largest = {r, -r};
  comm::allreduce_max(largest);
  EXPECT_EQ(largest, (std::vector<std::int64_t>{p - 1, 0}));
}

TEST(communicator, a_condition_holds_on_every_rank_only_where_no_rank_lacks_it) {
  EXPECT_TRUE(comm::holds_on_every_rank(true));
  EXPECT_FALSE(comm::holds_on_every_rank(false));
  // Only the last rank lacks it: every rank must hear so (one rank: it is rank 0, and lacks it).
  EXPECT_FALSE(comm::holds_on_every_rank(comm::rank() != comm::size() - 1));
}

TEST(communicator, double_sums_follow_rank_order) {
  auto contribution = [](int r) { return std::vector<double>{0.1 * (r + 1), 1e16 * (r % 2 ? -1 : 1), 1.0 / (r + 3)}; };
  std::vector<double> values = contribution(comm::rank());
  comm::allreduce_sum(values);
  std::vector<double> expected(3, 0.0);
  for (int r = 0; r < comm::size(); ++r) {
    const std::vector<double> part = contribution(r);
    for (int k = 0; k < 3; ++k) expected[k] += part[k];
  }
  EXPECT_EQ(values, expected);  // bit for bit: the same additions in the same order on every rank
}

TEST(communicator, broadcasts_come_from_the_root) {
  const int root = comm::size() - 1;
  std::vector<std::int64_t> values = {comm::rank(), 7};
  if (comm::rank() == root) values.push_back(42);
  comm::broadcast(values, root);
  EXPECT_EQ(values, (std::vector<std::int64_t>{root, 7, 42}));
  std::string text = comm::rank() == 0 ? "from rank 0, with a comma, and \"quotes\"" : "";
  comm::broadcast(text, 0);
  EXPECT_EQ(text, "from rank 0, with a comma, and \"quotes\"");
  comm::barrier();
}

int main(int argc, char** argv) {
  comm::Session session(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
