#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kollective/core/subsets/Subsets.hpp"

namespace subsets = kollective::subsets;

namespace {

/// The submasks of `mask` in increasing order, by brute force over every smaller mask.
std::vector<std::uint64_t> submasks_of(std::uint64_t mask) {
  std::vector<std::uint64_t> result;
  for (std::uint64_t s = 0; s <= mask; ++s) {
    if ((s & ~mask) == 0) result.push_back(s);
  }
  return result;
}

const std::uint64_t masks[] = {0b1, 0b1011, 0b10110100101, 0b111111, 0b1000000010001};

}  // namespace

TEST(subsets, submask_deposits_the_index_into_the_members) {
  for (const std::uint64_t mask : masks) {
    const std::vector<std::uint64_t> expected = submasks_of(mask);
    for (std::uint64_t i = 0; i < expected.size(); ++i) EXPECT_EQ(subsets::submask(i, mask), expected[i]) << mask;
  }
}

TEST(subsets, next_same_size_walks_each_size_in_increasing_order_then_ends) {
  for (const std::uint64_t mask : masks) {
    const int members = __builtin_popcountll(mask);
    for (int size = 1; size <= members; ++size) {
      std::vector<std::uint64_t> expected, walked;
      for (const std::uint64_t s : submasks_of(mask)) {
        if (__builtin_popcountll(s) == size) expected.push_back(s);
      }
      for (std::uint64_t s = subsets::lowest_members(mask, size); s != 0; s = subsets::next_same_size(s, mask))
        walked.push_back(s);
      EXPECT_EQ(walked, expected) << "mask " << mask << ", size " << size;
    }
    EXPECT_EQ(subsets::lowest_members(mask, members + 1), 0u) << "more members than the mask has";
  }
}

TEST(subsets, rank_colex_inverts_unrank_colex) {
  const auto binomial = [](int a, int b) -> std::uint64_t {
    std::uint64_t result = 1;
    if (b < 0 || b > a) return 0;
    for (int k = 1; k <= b; ++k)
      result = result * static_cast<std::uint64_t>(a - b + k) / static_cast<std::uint64_t>(k);
    return result;
  };
  for (const std::uint64_t mask : masks) {
    const int members = __builtin_popcountll(mask);
    for (int size = 1; size <= members; ++size) {
      std::uint64_t rank = 0;
      for (std::uint64_t s = subsets::lowest_members(mask, size); s != 0;
           s = subsets::next_same_size(s, mask), ++rank) {
        EXPECT_EQ(subsets::rank_colex(s, mask, binomial), rank) << "mask " << mask << ", size " << size;
        EXPECT_EQ(subsets::submask(subsets::unrank_colex(rank, size, members, binomial), mask), s);
      }
      EXPECT_EQ(rank, binomial(members, size));
    }
  }
}
