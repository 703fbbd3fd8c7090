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

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/tests/DistributedHelpers.hpp"

template <class Value>
void expect_shared_equals_alone(const coalition::Game& game, coalition::Method method) {
  coalition::Options options;
  options.method = method;
  options.precision = std::is_same_v<Value, float> ? kollective::Precision::float32 : kollective::Precision::float64;
  const coalition::Result alone = coalition::solve(Space(), game, options);
  options.communicator = world();
  const coalition::Result shared = coalition::solve(Space(), game, options);
  const std::string what = "n=" + std::to_string(game.agents) + " " + coalition::to_string(method);
  EXPECT_EQ(shared.value, alone.value) << what;  // bit for bit
  EXPECT_EQ(shared.structure, alone.structure) << what;
  EXPECT_EQ(shared.ranks, world().size()) << what;
  coalition::check_partition(game.agents, shared.structure);
  if (method == coalition::Method::dp && sizeof(Value) == 8) {
    EXPECT_EQ(shared.value, coalition::serial_dp(game)) << what;
  }
  if (game.agents <= coalition::brute_force_max_agents) {
    EXPECT_EQ(coalition::verify(game, options, shared), "brute force");
  }
}

TEST(distributed, coalition_layer_shares_deal_every_block_once) {
  // From fewer blocks than ranks, through short last runs, to runs of the longest length.
  for (const std::uint64_t blocks : {1, 2, 3, 7, 64, 126, 1000, 40000, 5200300}) {
    for (const int ranks : {1, 2, 3, 4, 8}) {
      std::vector<int> dealt(blocks, 0);
      std::uint64_t most = 0;
      for (int r = 0; r < ranks; ++r) {
        const coalition::Impl::LayerShare share(blocks, r, ranks);
        EXPECT_EQ(share.share, coalition::Impl::LayerShare(blocks, 0, ranks).count);
        most = std::max(most, share.count);
        for (std::uint64_t i = 0; i < share.count; ++i) {
          const std::uint64_t block = share.block(i);
          ASSERT_LT(block, blocks) << "blocks=" << blocks << " ranks=" << ranks << " rank=" << r << " i=" << i;
          ++dealt[block];
        }
      }
      EXPECT_EQ(most, coalition::Impl::LayerShare(blocks, 0, ranks).share) << "rank 0 has the most";
      EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), static_cast<std::ptrdiff_t>(blocks))
          << "blocks=" << blocks << " ranks=" << ranks;
    }
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

TEST(distributed, coalition_layers_gathered_in_rounds_equal_one_rank) {
  // A buffer of two double blocks a rank (four float ones): the largest layer at n = 14 (126
  // blocks) takes about 32 rounds on two ranks, the last short or empty on ranks with fewer blocks.
  auto& bytes = coalition::Impl::exchange_buffer_bytes;
  struct Restore {
    std::uint64_t& value;
    const std::uint64_t saved;
    ~Restore() { value = saved; }
  } restore{bytes, bytes};
  bytes = 2 * coalition::Impl::block_size * sizeof(double) * static_cast<std::uint64_t>(world().size());
  EXPECT_EQ(coalition::Impl::exchange_round_blocks<double>(world().size()), 2u);
  for (int n = 9; n <= 14; ++n) {
    expect_shared_equals_alone<double>(coalition::uniform_game(n, 700 + n), coalition::Method::idp);
    expect_shared_equals_alone<float>(coalition::idpg_benchmark(n, 4321), coalition::Method::dp);
  }
}

TEST(distributed, coalition_auto_shared_is_idp_and_refuses_a_time_limit) {
  // Several ranks: auto is IDP shared (one rank's optimum up to IP's sum order); a limit is refused.
  const auto game = coalition::generate_game("modified_normal", 12, 5);
  coalition::Options options;
  options.method = coalition::Method::automatic;
  const coalition::Result alone = coalition::solve(Space(), game, options);
  options.communicator = world();
  const coalition::Result shared = coalition::solve(Space(), game, options);
  EXPECT_NEAR(shared.value, alone.value, 1e-12 * std::fabs(alone.value));
  EXPECT_EQ(shared.method, world().size() > 1 ? "idp" : alone.method);
  coalition::check_partition(game.agents, shared.structure);
  options.time_limit = 60;
  if (world().size() > 1) {
    EXPECT_THROW(coalition::solve(Space(), game, options), kollective::Error);
  } else {
    EXPECT_TRUE(coalition::solve(Space(), game, options).exact);
  }
}
