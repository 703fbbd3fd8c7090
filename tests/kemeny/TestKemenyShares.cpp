// How ranks share Kemeny's subset DP (KemenyShares_Impl.hpp): every candidate that crosses ranks
// is traded exactly once, and each step's messages (step_messages, as the DP posts them)
// agree between partners in order and size (else NCCL would pair a send with the wrong receive,
// or wait forever).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyShares_Impl.hpp"

namespace {

using kollective::kemeny::Impl::Layout;
using kollective::kemeny::Impl::layout;

/// The entry counts of the messages `messages` lists to or from `partner`, in order.
std::vector<std::uint64_t> counts_with(const std::vector<kollective::kemeny::Impl::LayerMessage>& messages,
                                       int partner) {
  std::vector<std::uint64_t> counts;
  for (const auto& message : messages) {
    if (message.rank == partner) counts.push_back(message.count);
  }
  return counts;
}

/// How many times the candidate "part v, top bit j" reaches v's owner.
int deliveries(const std::vector<Layout>& ranks, int v, int j) {
  const Layout& reader = ranks[ranks[0].owner(v)];
  int count = 0;
  for (const int w : reader.received) count += w == (v ^ 1 << j);
  for (const Layout::Merged& merged : reader.merged_received) count += merged.part == v && (merged.bits >> j & 1);
  return count;
}

}  // namespace

TEST(kemeny_shares, every_candidate_crosses_once_and_partners_agree) {
  for (const int n : {8, 20, 33}) {
    for (int size = 1; size <= 16; ++size) {
      std::vector<Layout> ranks;
      for (int r = 0; r < size; ++r) ranks.push_back(layout(n, size, r));
      const Layout& first = ranks[0];
      const int taking_part = 1 << first.rank_bits;
      const std::string what = "n=" + std::to_string(n) + " ranks=" + std::to_string(size);
      for (int r = taking_part; r < size; ++r) EXPECT_EQ(ranks[r].rank, -1) << what;
      for (int r = 0; r < taking_part; ++r) {
        EXPECT_EQ(ranks[r].parts.size(), first.part_bits == 0 ? 1u : 2u) << what;
        for (const int buffers : {1, 2}) {  // the sizes the partners send and expect, step by step
          std::vector<Layout> stepped = ranks;
          for (Layout& l : stepped) l.buffers = buffers;
          const auto low_sets = [&](int s) {
            const int m = first.low_bits();
            return s < 0 || s > m ? std::uint64_t{0}
                                  : static_cast<std::uint64_t>(kollective::subsets::choose(m, s) + 0.5);
          };
          for (int t = 0; t < kollective::kemeny::Impl::steps(stepped[r]); ++t) {
            const auto mine = kollective::kemeny::Impl::step_messages(stepped[r], t, low_sets);
            for (int partner = 0; partner < taking_part; ++partner) {
              if (partner == r) continue;
              const auto theirs = kollective::kemeny::Impl::step_messages(stepped[partner], t, low_sets);
              EXPECT_EQ(counts_with(mine.sends, partner), counts_with(theirs.receives, r))
                  << what << " buffers " << buffers << " step " << t;
            }
          }
        }
      }
      for (int v = 0; v < (1 << first.part_bits); ++v) {
        for (int j = 0; j < first.part_bits; ++j) {
          if (v >> j & 1) EXPECT_EQ(deliveries(ranks, v, j), 1) << what << " part " << v << " bit " << j;
        }
      }
      if (taking_part == 2) {  // part 3's two lower parts arrive merged: one layer each way
        for (int r = 0; r < taking_part; ++r) {
          const Layout& l = ranks[r];
          EXPECT_EQ(l.sent.size() + l.merged_sent.size(), 1u) << what;
          EXPECT_EQ(l.received.size() + l.merged_received.size(), 1u) << what;
        }
      }
    }
  }
}
