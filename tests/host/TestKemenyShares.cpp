// How ranks share Kemeny's subset DP (KemenyShares_Impl.hpp): every candidate that crosses ranks
// is traded exactly once, and partners list their messages alike (else NCCL would pair a send
// with the wrong receive, or wait forever).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "algorithms/kemeny/impl/KemenyShares_Impl.hpp"

namespace {

using kollective::kemeny::Impl::Layout;
using kollective::kemeny::Impl::layout;

/// A message between two ranks: a part's layer as it is (merged = false) or the merged
/// candidates of a reading part.
using Message = std::tuple<int, bool>;

std::vector<Message> sent_to(const Layout& l, int reader) {
  std::vector<Message> messages;
  for (const int w : l.sent) {
    for (const int rank : l.readers(w)) {
      if (rank == reader) messages.emplace_back(w, false);
    }
  }
  for (const Layout::Merged& merged : l.merged_sent) {
    if (merged.rank == reader) messages.emplace_back(merged.part, true);
  }
  return messages;
}

std::vector<Message> received_from(const Layout& l, int sender) {
  std::vector<Message> messages;
  for (const int w : l.received) {
    if (l.owner(w) == sender) messages.emplace_back(w, false);
  }
  for (const Layout::Merged& merged : l.merged_received) {
    if (merged.rank == sender) messages.emplace_back(merged.part, true);
  }
  return messages;
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
        for (int partner = 0; partner < taking_part; ++partner) {
          if (partner != r) EXPECT_EQ(sent_to(ranks[r], partner), received_from(ranks[partner], r)) << what;
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
