// Device pairwise builder and generator against host references (included once per backend).
#include <gtest/gtest.h>

#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

template <class ExecSpace>
void check_pairwise_matches_reference(int n, int ballots, std::uint64_t seed) {
  const auto profile = random_weak_profile(n, ballots, seed);
  ExecSpace space;
  const auto device = preferences::to_host(preferences::build_pairwise(space, profile), profile.names);
  EXPECT_EQ(device.doubled, preferences::pairwise_reference(profile).doubled) << "n=" << n << " seed=" << seed;
}

template <class ExecSpace>
void check_random_pairwise_is_backend_independent() {
  ExecSpace space;
  const int n = 37;
  const std::uint32_t voters = 101;
  const auto counts =
      preferences::to_host(preferences::random_pairwise(space, n, voters, 9), preferences::numbered_names(n));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i == j) {
        EXPECT_EQ(counts.at(i, j), 0u);
        continue;
      }
      // The same formula evaluated on the host: every backend draws the same numbers.
      const int low = std::min(i, j), high = std::max(i, j);
      const auto for_low =
          static_cast<std::uint32_t>(bounded(hash_draw(9, static_cast<std::uint64_t>(low) * n + high), voters + 1ull));
      EXPECT_EQ(counts.at(i, j), 2u * (i == low ? for_low : voters - for_low));
      EXPECT_EQ(counts.at(i, j) + counts.at(j, i), 2u * voters);
    }
  }
}

TEST(TEST_CATEGORY, pairwise_matches_reference_on_random_weak_orders) {
  for (int n : {1, 2, 3, 7, 16, 33}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) check_pairwise_matches_reference<TEST_EXECSPACE>(n, 40, seed);
  }
}

TEST(TEST_CATEGORY, random_pairwise_is_backend_independent) {
  check_random_pairwise_is_backend_independent<TEST_EXECSPACE>();
}

TEST(TEST_CATEGORY, pairwise_refuses_what_does_not_fit) {
  preferences::Profile profile = random_weak_profile(4, 3, 1);
  setenv("KOLLECTIVE_MEMORY_LIMIT", "100000000", 1);  // 100 MB
  const std::string message = error_of([] {
    TEST_EXECSPACE space;
    preferences::random_pairwise(space, 200000, 10, 1);  // 160 GB
  });
  unsetenv("KOLLECTIVE_MEMORY_LIMIT");
  EXPECT_NE(message.find("the pairwise matrix of 200000 alternatives needs 149.01 GiB"), std::string::npos) << message;
}

}  // namespace kollective::test
