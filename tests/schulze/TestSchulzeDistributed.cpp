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

#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/algorithms/schulze/SchulzeReference.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/tests/DistributedHelpers.hpp"

/// This rank's rows, both directions, equal the whole matrix's rows and columns.
void expect_rows_of(const preferences::PairwiseView<Space::memory_space>& whole,
                    const preferences::PairwiseRows<Space::memory_space>& rows, const std::string& what) {
  const auto all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole);
  const auto forward = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.forward);
  const auto backward = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.backward);
  for (std::int64_t r = 0; r < rows.count(); ++r) {
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(all.extent(1)); ++j) {
      ASSERT_EQ(forward(r, j), all(rows.first + r, j)) << what << " row " << rows.first + r;
      ASSERT_EQ(backward(r, j), all(j, rows.first + r)) << what << " row " << rows.first + r;
    }
  }
}

void expect_same_schulze(const schulze::Result& shared, const schulze::Result& alone, const std::string& what) {
  EXPECT_EQ(shared.winners, alone.winners) << what;
  EXPECT_EQ(shared.beaten, alone.beaten) << what;
  EXPECT_EQ(shared.ranking, alone.ranking) << what;
  EXPECT_EQ(shared.paths, alone.paths) << what;  // bit for bit
  EXPECT_EQ(shared.strength_bits, alone.strength_bits) << what;
  EXPECT_EQ(shared.ranks, world().size()) << what;
}

TEST(distributed, schulze_shared_by_every_rank_equals_one_rank_and_the_reference) {
  // Sizes around tile boundaries, so some ranks hold no tile row (n <= 64) or a short last tile.
  const Space space;
  for (const int n : {1, 2, 5, 63, 64, 65, 130, 200, 257}) {
    for (const std::uint64_t seed : {1, 2}) {
      const auto profile = kollective::test::random_weak_profile(n, 2 * n + 5, seed, seed == 1 ? 5 : 40000);
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      const auto whole = preferences::build_pairwise(space, profile);
      const schulze::SharedRows mine = schulze::shared_rows(n, world());
      const auto rows = preferences::build_pairwise_rows(space, profile, mine.first, mine.count);
      expect_rows_of(whole, rows, what + " ballots");
      const auto counts = preferences::pairwise_reference(profile);
      expect_rows_of(whole, preferences::pairwise_rows_to_device(space, counts, mine.first, mine.count),
                     what + " counts");
      for (const auto rule : {schulze::LinkRule::winning_votes, schulze::LinkRule::margin}) {
        const auto reference = schulze::solve_reference(counts, rule);
        const bool fits16 = *std::max_element(reference.paths.begin(), reference.paths.end()) <= 0xffffu;
        for (const auto bits : {schulze::StrengthBits::bits32, schulze::StrengthBits::bits16}) {
          if (bits == schulze::StrengthBits::bits16 && !fits16) continue;
          const schulze::Options options{rule, bits, true};
          schulze::Options everyone = options;
          everyone.communicator = world();
          const std::string run = what + " " + schulze::to_string(rule) + (fits16 ? " 16" : " 32");
          const schulze::Result alone = schulze::solve(space, whole, options);
          const schulze::Result shared = schulze::solve_shared(space, rows, n, everyone);
          expect_same_schulze(shared, alone, run);
          expect_same_schulze(schulze::solve(space, whole, everyone), alone, run + " (whole matrix on every rank)");
          EXPECT_EQ(shared.paths, reference.paths) << run;
          EXPECT_EQ(shared.winners, reference.winners) << run;
        }
      }
    }
  }
}

TEST(distributed, schulze_shared_generated_tournament_equals_one_rank) {
  const Space space;
  const int n = 300;  // 5 tiles: uneven over 2, 3 and 4 ranks
  const auto whole = preferences::random_pairwise(space, n, 1000001, 7);
  const schulze::SharedRows mine = schulze::shared_rows(n, world());
  const auto rows = preferences::random_pairwise_rows(space, n, 1000001, 7, mine.first, mine.count);
  expect_rows_of(whole, rows, "random tournament");
  schulze::Options options;
  options.keep_paths = true;
  schulze::Options everyone = options;
  everyone.communicator = world();
  expect_same_schulze(schulze::solve_shared(space, rows, n, everyone), schulze::solve(space, whole, options),
                      "random tournament");
}

TEST(distributed, schulze_shared_refuses_rows_that_are_not_this_ranks) {
  const Space space;
  const int n = 130;
  const auto rows = preferences::random_pairwise_rows(space, n, 5, 1, 0, n);  // every row, on every rank
  schulze::Options everyone;
  everyone.communicator = world();
  if (world().size() == 1) {
    EXPECT_NO_THROW(schulze::solve_shared(space, rows, n, everyone));
    return;
  }
  EXPECT_THROW(schulze::solve_shared(space, rows, n, everyone), kollective::SharedError);
}
