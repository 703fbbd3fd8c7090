#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_SHARES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_SHARES_IMPL_HPP

/// \file KemenyShares_Impl.hpp
/// How ranks share the subset DP's tables (the scheme is described in KemenySubsetDP_Impl.hpp):
/// which parts each rank holds, which layers it sends and receives, and the memory a share
/// needs. Do not include directly: include algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

/// How 2^d ranks share the DP of n alternatives, and what one rank holds, sends and receives.
struct Layout {
  static constexpr int max_part_bits = 16;
  int n = 0;
  int rank_bits = 0;          ///< d: 2^d ranks take part
  int part_bits = 0;          ///< D: the top D alternatives pick a set's part (0 with one rank, else d + 1)
  int rank = 0;               ///< this rank, or -1 when it does not take part
  std::vector<int> parts;     ///< the parts this rank holds, ascending
  std::vector<int> sent;      ///< those that some other rank reads as they are, ascending
  std::vector<int> received;  ///< the parts below this rank's parts read as they are, ascending
  /// The candidates of `part` that come from its lower parts on one other rank, merged there.
  struct Merged {
    int part;  ///< the reading part
    int bits;  ///< its top bits j whose lower parts (part without j) are merged
    int rank;  ///< the other end: the reader when sent, the sender when received
  };
  std::vector<Merged> merged_sent;      ///< by part, ascending
  std::vector<Merged> merged_received;  ///< by part, then sender, ascending

  int low_bits() const { return n - part_bits; }
  int owner(int part) const { return (part ^ part >> 1) & ((1 << rank_bits) - 1); }
  bool shared = true;               ///< the ranks share the DP (collectives); false: this rank alone
  comm::Communicator communicator;  ///< the ranks, where shared
  /// Room for each traded layer: 2 lets step t's messages travel while step t + 1 computes; 1
  /// makes them travel between the steps (when two do not fit).
  int buffers = 1;

  /// Slots of the trade's send and receive buffers: one for each layer sent, or received.
  std::size_t send_slots() const { return sent.size() + merged_sent.size(); }
  std::size_t got_slots() const { return received.size() + merged_received.size(); }
  /// Entries of the largest layer of one part (a packed layer's room).
  std::uint64_t largest_layer() const {
    return static_cast<std::uint64_t>(subsets::choose(low_bits(), low_bits() / 2) + 0.5);
  }
  /// The top bits j of part v whose lower part (v without j) belongs to rank r.
  int lower_bits_on(int v, int r) const {
    int bits = 0;
    for (int j = 0; j < part_bits; ++j) {
      if (v >> j & 1 && owner(v ^ 1 << j) == r) bits |= 1 << j;
    }
    return bits;
  }
  /// Whether rank r merges the candidates of part v that it holds (it holds two or more).
  bool merged(int v, int r) const { return Kokkos::popcount(static_cast<unsigned>(lower_bits_on(v, r))) >= 2; }
  /// The ranks that read part w as it is (owners of the parts above it, unless merged), ascending.
  std::vector<int> readers(int w) const {
    std::vector<int> ranks;
    for (int j = 0; j < part_bits; ++j) {
      const int v = w | 1 << j;
      if (!(w >> j & 1) && !merged(v, owner(w))) ranks.push_back(owner(v));
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
  }
  /// Where `part` is among this rank's parts, or -1.
  int index_of(int part) const {
    const auto at = std::find(parts.begin(), parts.end(), part);
    return at == parts.end() ? -1 : static_cast<int>(at - parts.begin());
  }
};

inline Layout layout(int n, int ranks, int rank) {
  Layout l;
  l.n = n;
  while ((2 << l.rank_bits) <= ranks && l.rank_bits + 2 < n && l.rank_bits + 2 <= Layout::max_part_bits) ++l.rank_bits;
  l.part_bits = l.rank_bits == 0 ? 0 : l.rank_bits + 1;
  l.rank = rank < (1 << l.rank_bits) ? rank : -1;
  for (int v = 0; v < (1 << l.part_bits) && l.rank >= 0; ++v) {
    if (l.owner(v) != l.rank) {
      if (l.merged(v, l.rank)) l.merged_sent.push_back({v, l.lower_bits_on(v, l.rank), l.owner(v)});
      continue;
    }
    l.parts.push_back(v);
    if (!l.readers(v).empty()) l.sent.push_back(v);
    for (int r = 0; r < (1 << l.rank_bits); ++r) {
      if (l.merged(v, r)) l.merged_received.push_back({v, l.lower_bits_on(v, r), r});
    }
    for (int j = 0; j < l.part_bits; ++j) {
      if (v >> j & 1 && !l.merged(v, l.owner(v ^ 1 << j))) l.received.push_back(v ^ 1 << j);
    }
  }
  std::sort(l.received.begin(), l.received.end());
  l.received.erase(std::unique(l.received.begin(), l.received.end()), l.received.end());
  return l;
}

/// The whole DP on this rank, outside any collective (the ranks solve other inputs).
/// The layout of this rank of `communicator`, for a DP shared by its ranks.
inline Layout layout(int n, const comm::Communicator& communicator) {
  Layout l = layout(n, communicator.size(), communicator.rank());
  l.communicator = communicator;
  return l;
}

inline Layout alone(int n) {
  Layout l = layout(n, 1, 0);
  l.shared = false;
  return l;
}

/// Bytes one rank needs for the DP of n alternatives: the one-rank DP's (dp_bytes), with its 2^n
/// entries of best and ways replaced by this rank's parts and `buffers` largest layers for each
/// layer it sends or receives.
inline std::int64_t dp_rank_bytes(const Layout& l, int distance_bytes) {
  const double entry = distance_bytes + 8;
  const std::size_t layers = l.buffers * (l.send_slots() + l.got_slots());
  const double held = std::ldexp(static_cast<double>(l.parts.size()), l.low_bits()) +
                      static_cast<double>(layers) * static_cast<double>(l.largest_layer());
  return dp_bytes(l.n, distance_bytes) + static_cast<std::int64_t>(entry * (held - std::ldexp(1.0, l.n)));
}

/// The most any of `ranks` ranks needs for the DP of n alternatives.
inline std::int64_t dp_most_rank_bytes(int n, int ranks, int distance_bytes) {
  std::int64_t most = 0;
  for (int r = 0; r < ranks; ++r) most = std::max(most, dp_rank_bytes(layout(n, ranks, r), distance_bytes));
  return most;
}

/// Fails before allocating unless this rank's share fits, naming the bytes and the ranks that
/// would fit; `of` names the input.
inline void require_rank_memory(MemoryKind memory, const Layout& l, int distance_bytes, const std::string& of) {
  const std::int64_t needed = dp_rank_bytes(l, distance_bytes);
  const std::string what = "this rank's share of the Kemeny subset DP over " + std::to_string(l.n) + " alternatives" +
                           of + " on " + std::to_string(1 << l.rank_bits) + " ranks";
  const std::int64_t available = available_bytes(memory);
  if (needed > available) {
    int enough = 2 << l.rank_bits;
    while (enough < 1024 && dp_most_rank_bytes(l.n, enough, distance_bytes) > available) enough *= 2;
    fail(what, " needs ", format_bytes(static_cast<double>(needed)), " of device memory but only ",
         format_bytes(static_cast<double>(available)), " is available; with ", enough,
         " ranks (one GPU each) a share would take ",
         format_bytes(static_cast<double>(dp_most_rank_bytes(l.n, enough, distance_bytes))));
  }
  require_memory(memory, needed, what);
}

/// The DP runs in steps: step t computes, for each part v, its sets whose low parts have
/// t - buffers * |v| members (|v|: its top count, so parts wait for their lower parts). What a part
/// reads from a lower part was thus computed `buffers` steps earlier, and travels after that step.
inline int top_count(int part) { return Kokkos::popcount(static_cast<unsigned>(part)); }
inline int low_size_at(const Layout& l, int part, int step) { return step - l.buffers * top_count(part); }
inline int steps(const Layout& l) { return l.n + 1 + (l.buffers - 1) * l.part_bits; }

/// One message of a step's trade: `count` entries at slot `slot` of the send or receive
/// buffers (a largest layer each), to or from `rank`.
struct LayerMessage {
  std::size_t slot;
  std::uint64_t count;
  int rank;
};
struct LayerMessages {
  std::vector<LayerMessage> sends, receives;
};

/// What this rank sends and receives after step t, in the order its partners list them: what the
/// parts read as they are computed in step t, then the merged candidates their lower parts gave.
/// layer_size(s): the sets of a part whose low parts have s members.
template <class LayerSize>
LayerMessages step_messages(const Layout& l, int t, const LayerSize& layer_size) {
  LayerMessages messages;
  // A merged part's candidates come from its lower parts, one top alternative fewer.
  const auto merged_size = [&](const Layout::Merged& merged) {
    return layer_size(low_size_at(l, merged.part, t) + l.buffers);
  };
  for (std::size_t e = 0; e < l.sent.size(); ++e) {
    for (const int reader : l.readers(l.sent[e])) {
      messages.sends.push_back({e, layer_size(low_size_at(l, l.sent[e], t)), reader});
    }
  }
  for (std::size_t e = 0; e < l.merged_sent.size(); ++e) {
    messages.sends.push_back({l.sent.size() + e, merged_size(l.merged_sent[e]), l.merged_sent[e].rank});
  }
  for (std::size_t e = 0; e < l.received.size(); ++e) {
    messages.receives.push_back({e, layer_size(low_size_at(l, l.received[e], t)), l.owner(l.received[e])});
  }
  for (std::size_t e = 0; e < l.merged_received.size(); ++e) {
    messages.receives.push_back({l.received.size() + e, merged_size(l.merged_received[e]), l.merged_received[e].rank});
  }
  return messages;
}

/// Where the DP kernel of a part also writes each set's best and ways: as they are, into send
/// slot `as_is` (-1: none), and, for each merged part whose candidates it completes, into send
/// slot slot[i], the best over that part's lower parts on this rank: its own through top bit
/// bit[i], and those of the other lower parts, computed before it in the step, read from the
/// tables (part index others_index[k] through top bit others_bit[k], k in [others_begin[i],
/// others_begin[i + 1])). Reading them there, not from a candidate each writes, keeps the other
/// lower parts' kernels free of the merge.
struct PartOutputs {
  int as_is = -1;
  Kokkos::Array<int, Layout::max_part_bits> slot{}, bit{}, others_index{}, others_bit{};
  Kokkos::Array<int, Layout::max_part_bits + 1> others_begin{};
  int count = 0;
};

inline PartOutputs part_outputs(const Layout& l, int w) {
  PartOutputs out;
  const auto sent = std::find(l.sent.begin(), l.sent.end(), w);
  if (sent != l.sent.end()) out.as_is = static_cast<int>(sent - l.sent.begin());
  int others = 0;
  for (std::size_t e = 0; e < l.merged_sent.size(); ++e) {
    const Layout::Merged& merged = l.merged_sent[e];
    const int j = Kokkos::countr_zero(static_cast<unsigned>(merged.part ^ w));
    if ((merged.part ^ w) != 1 << j || !(merged.bits >> j & 1)) continue;  // w is not its lower part
    // The DP runs this rank's parts in ascending order: the last lower part lacks the lowest bit.
    if (j != Kokkos::countr_zero(static_cast<unsigned>(merged.bits))) continue;
    out.slot[out.count] = static_cast<int>(l.sent.size() + e);
    out.bit[out.count] = j;
    for (int k = j + 1; k < l.part_bits; ++k) {
      if (!(merged.bits >> k & 1)) continue;
      if (others == Layout::max_part_bits)
        fail("Kemeny subset DP: part ", w, " merges more candidates than it can hold");
      out.others_index[others] = l.index_of(merged.part ^ 1 << k);
      out.others_bit[others++] = k;
    }
    out.others_begin[++out.count] = others;
  }
  return out;
}

/// Where the candidates of a part's top alternatives arrive: slot i is received layer at[i], to
/// which the cost of top bit bit[i] is still to be added (-1: merged, cost added by the sender).
struct TopSlots {
  Kokkos::Array<int, Layout::max_part_bits> at{}, bit{};
  int count = 0;
};

inline TopSlots top_slots(const Layout& l, int v) {
  TopSlots slots;
  for (int j = 0; j < l.part_bits; ++j) {
    if (!(v >> j & 1) || l.merged(v, l.owner(v ^ 1 << j))) continue;
    slots.at[slots.count] =
        static_cast<int>(std::find(l.received.begin(), l.received.end(), v ^ 1 << j) - l.received.begin());
    slots.bit[slots.count++] = j;
  }
  for (std::size_t e = 0; e < l.merged_received.size(); ++e) {
    if (l.merged_received[e].part != v) continue;
    slots.at[slots.count] = static_cast<int>(l.received.size() + e);
    slots.bit[slots.count++] = -1;
  }
  return slots;
}

}  // namespace kollective::kemeny::Impl

#endif
