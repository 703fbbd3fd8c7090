#include <gtest/gtest.h>

#include <cmath>

#include "algorithms/coalition/Coalition.hpp"

namespace coalition = kollective::coalition;

TEST(coalition_host, split_counts_match_the_literature) {
  // ALGORITHMS.md: DP = (3^n + 1)/2 - 2^n; IDP about 0.38 of DP; n = 24: DP 1.41e11, IDP 5.46e10;
  // n = 28: DP 1.14e13, IDP 4.26e12; n = 30: IDP 3.92e13.
  for (int n = 2; n <= 30; ++n) {
    EXPECT_DOUBLE_EQ(coalition::split_count(n, coalition::Method::dp), (std::pow(3.0, n) + 1) / 2 - std::pow(2.0, n)) << n;
  }
  EXPECT_NEAR(coalition::split_count(24, coalition::Method::idp) / 5.46e10, 1.0, 0.01);
  EXPECT_NEAR(coalition::split_count(28, coalition::Method::idp) / 4.26e12, 1.0, 0.01);
  EXPECT_NEAR(coalition::split_count(30, coalition::Method::idp) / 3.92e13, 1.0, 0.01);
}

TEST(coalition_host, brute_force_on_a_hand_example) {
  // 3 agents: v{1}=1, v{2}=2, v{1,2}=3.5, v{3}=3, v{1,3}=3, v{2,3}=6, v{1,2,3}=6.5: best {1},{2,3} = 7.
  coalition::Game game;
  game.agents = 3;
  game.values = {0, 1, 2, 3.5, 3, 3, 6, 6.5};
  const auto best = coalition::brute_force(game);
  EXPECT_DOUBLE_EQ(best.value, 7.0);
  EXPECT_EQ(best.structure, (coalition::Structure{0b001, 0b110}));
  EXPECT_EQ(coalition::format_structure(best.structure, {"a", "b", "c"}), "{a}, {b, c}");
}

TEST(coalition_host, idpg_generator_is_marsaglia_mwc) {
  const auto game = coalition::idpg_benchmark(3, 1234);
  // First draw: z = 36969*1234 + 0, w = 18000*1234 + 0, r = (z << 16) + w (mod 2^32).
  const std::uint32_t z = 36969u * 1234u, w = 18000u * 1234u;
  EXPECT_FLOAT_EQ(static_cast<float>(game.values[1]), static_cast<float>(((z << 16) + w) / 4294967296.0));
  EXPECT_EQ(game.values[0], 0.0);
}
