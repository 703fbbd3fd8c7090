#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IMPL_HPP

/// \file Coalition_Impl.hpp
/// Blocked subset DP. The n agents are split into `low_agents` = 5 low bits and H = n - 5 high
/// bits, so the value table f[mask] is a sequence of 2^H blocks of 32 consecutive entries, block
/// Ch holding the coalitions (Ch, Cl) for every low part Cl. A split {A, B} of C = (Ch, Cl) is
///  - a high split when both A and B have agents in Ch: A = (Ah, Al), B = (Ch \ Ah, Cl \ Al); for
///    one high split {Ah, Bh} the 3^5 = 243 splits over all (Cl, Al) read just two blocks, F_Ah and
///    F_Bh, so one thread computes them from registers (a max-plus subset convolution of two
///    32-vectors) after two 128-byte reads: the DP's random reads become block reads;
///  - a local split when one part lies in the low agents only: A = (empty, Al); these read block 0
///    and block Ch itself, so they run in increasing Cl order after the high splits.
/// Blocks are processed by layers of |Ch|; a layer's high splits are spread over threads in
/// chunks of Ah of one size (so a warp shares IDP's size tests) and merged with an atomic max,
/// then one thread per block runs the local splits. DP evaluates every split exactly once. IDP
/// (Rahwan & Jennings) skips the size groups (|Al|, |Bl|) of a high split that dep(c) does not
/// evaluate; the local splits are all evaluated. Evaluating a superset of IDP's splits keeps its
/// guarantee: f(grand coalition) is the optimum (f stays between IDP's and DP's values).
/// Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionAuto_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIPSolver_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionIP_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionShares_Impl.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionUpload_Impl.hpp"
#include "kollective/core/comm/ViewCollectives.hpp"
#include "kollective/core/kokkos_ext/Atomics.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/Workspace.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::coalition::Impl {

constexpr int low_agents = 5;
constexpr int block_size = 1 << low_agents;

/// Whether packet k of a block (per_packet entries each) holds an entry that `entries` names.
KOKKOS_FORCEINLINE_FUNCTION constexpr bool packet_named(std::uint32_t entries, int k, int per_packet) {
  return (entries >> (k * per_packet) & ((std::uint32_t{1} << per_packet) - 1)) != 0;
}

/// Reads the entries of a block that `entries` names (bit Cl: entry Cl; no split reads the
/// others). 16-byte vector loads on the GPU: one warp instruction then touches 32 half-sectors
/// instead of 32 sectors for 4 useful bytes each; a packet no named entry lies in is not read (its
/// entries are set to the lowest value), so IDP's late layers, whose splits read few entries of a
/// block, move fewer sectors from memory (IDP at n = 28-29 on an H200: 15.5% faster). The host
/// reads every entry: selecting them made IDP 1.8x slower on the 2-core CPU.
template <class Value>
KOKKOS_FORCEINLINE_FUNCTION void load_block(const Value* block, Value (&out)[block_size],
                                            std::uint32_t entries = ~std::uint32_t{0}) {
#if defined(__CUDA_ARCH__)
  const Value lowest = Kokkos::reduction_identity<Value>::max();
  struct alignas(16) Packet {
    Value v[16 / sizeof(Value)];
  };
  constexpr int per_packet = 16 / sizeof(Value);
  KOLLECTIVE_UNROLL
  for (int k = 0; k < block_size / per_packet; ++k) {
    if (packet_named(entries, k, per_packet)) {
      const Packet packet = reinterpret_cast<const Packet*>(block)[k];
      KOLLECTIVE_UNROLL
      for (int j = 0; j < per_packet; ++j) out[k * per_packet + j] = packet.v[j];
    } else {
      KOLLECTIVE_UNROLL
      for (int j = 0; j < per_packet; ++j) out[k * per_packet + j] = lowest;
    }
  }
#else
  (void)entries;
  for (int k = 0; k < block_size; ++k) out[k] = block[k];
#endif
}

/// Which (|Al|, |Bl|) size groups of a high split are evaluated: bit `group(x, y)`.
constexpr int group(int x, int y) { return x * (low_agents + 1) + y; }

/// acc[Al | Bl] = max(acc[Al | Bl], a[Al] + b[Bl]) for the disjoint (Al, Bl) with |Al| = X and
/// |Bl| = Y, unrolled at compile time so that a, b and acc stay in registers.
template <int X, int Y, int Al, class Value, std::size_t... Bl>
KOKKOS_FORCEINLINE_FUNCTION void convolve_row(Value (&acc)[block_size], const Value a, const Value (&b)[block_size],
                                              std::index_sequence<Bl...>) {
  // Kokkos::popcount is constexpr and callable on the device, so each test folds at compile time.
  ((Kokkos::popcount(unsigned{Al}) == X && Kokkos::popcount(Bl) == Y && (Al & static_cast<int>(Bl)) == 0
        ? void(acc[Al | Bl] = Kokkos::max(acc[Al | Bl], a + b[Bl]))
        : void()),
   ...);
}
template <int X, int Y, class Value, std::size_t... Al>
KOKKOS_FORCEINLINE_FUNCTION void convolve_group(Value (&acc)[block_size], const Value (&a)[block_size],
                                                const Value (&b)[block_size], std::index_sequence<Al...>) {
  (convolve_row<X, Y, static_cast<int>(Al)>(acc, a[Al], b, std::make_index_sequence<block_size>{}), ...);
}
/// All 3^5 = 243 splits of one high split {Ah, Bh} over every (Cl, Al), by size group; IDP's
/// `groups` skip the size combinations it does not evaluate (uniform across a warp, which works
/// on one |Ah|).
template <class Value, std::size_t... G>
KOKKOS_FORCEINLINE_FUNCTION void convolve(Value (&acc)[block_size], const Value (&a)[block_size],
                                          const Value (&b)[block_size], std::uint64_t groups,
                                          std::index_sequence<G...>) {
  constexpr int side = low_agents + 1;
  ((int(G) / side + int(G) % side <= low_agents && (groups >> G & 1)
        ? convolve_group<int(G) / side, int(G) % side>(acc, a, b, std::make_index_sequence<block_size>{})
        : void()),
   ...);
}

/// Local splits of block Ch != 0, in increasing Cl: acc[Cl] = max over non-empty Al of Cl of
/// low[Al] + acc[Cl \ Al] (low = block 0, the coalitions of low agents only).
template <int Cl, class Value, std::size_t... Al>
KOKKOS_FORCEINLINE_FUNCTION void local_entry(Value (&acc)[block_size], const Value (&low)[block_size],
                                             std::index_sequence<Al...>) {
  ((Al != 0 && (static_cast<int>(Al) & ~Cl) == 0 ? void(acc[Cl] = Kokkos::max(acc[Cl], low[Al] + acc[Cl ^ Al]))
                                                 : void()),
   ...);
}
template <class Value, std::size_t... Cl>
KOKKOS_FORCEINLINE_FUNCTION void local_splits(Value (&acc)[block_size], const Value (&low)[block_size],
                                              std::index_sequence<Cl...>) {
  (local_entry<static_cast<int>(Cl)>(acc, low, std::make_index_sequence<block_size>{}), ...);
}

/// Block 0 on its own: the plain DP over the low agents, both parts non-empty.
template <int Cl, class Value, std::size_t... Al>
KOKKOS_FORCEINLINE_FUNCTION void low_entry(Value (&acc)[block_size], std::index_sequence<Al...>) {
  ((Al != 0 && static_cast<int>(Al) != Cl && (static_cast<int>(Al) & ~Cl) == 0
        ? void(acc[Cl] = Kokkos::max(acc[Cl], acc[Al] + acc[Cl ^ Al]))
        : void()),
   ...);
}
template <class Value, std::size_t... Cl>
KOKKOS_FORCEINLINE_FUNCTION void low_splits(Value (&acc)[block_size], std::index_sequence<Cl...>) {
  (low_entry<static_cast<int>(Cl)>(acc, std::make_index_sequence<block_size>{}), ...);
}

/// The entries of the blocks of Ah (`second` false: Al with |Al| = x) or of Bh (Bl with |Bl| = y)
/// that the size groups `groups` read.
inline std::uint32_t entries_read(std::uint64_t groups, bool second) {
  std::uint32_t entries = 0;
  for (int x = 0; x <= low_agents; ++x) {
    for (int y = 0; x + y <= low_agents; ++y) {
      if ((groups >> group(x, y) & 1) == 0) continue;
      for (int entry = 0; entry < block_size; ++entry) {
        if (Kokkos::popcount(static_cast<unsigned>(entry)) == (second ? y : x)) entries |= std::uint32_t{1} << entry;
      }
    }
  }
  return entries;
}

/// The size groups (x, y) = (|Al|, |Bl|) that IDP evaluates for a high split with |Ah| = p and
/// |Bh| = q: the coalition has c = p + q + x + y agents; dep(c) needs c = n or
/// max(p + x, q + y) <= n - c.
inline std::uint64_t idp_groups(int n, int p, int q) {
  std::uint64_t groups = 0;
  for (int x = 0; x <= low_agents; ++x) {
    for (int y = 0; x + y <= low_agents; ++y) {
      const int c = p + q + x + y;
      if (c <= n && (c == n || Kokkos::max(p + x, q + y) <= n - c)) groups |= std::uint64_t{1} << group(x, y);
    }
  }
  return groups;
}

/// One layer of blocks (|Ch| = high): its high splits are grouped by p = |Ah| (Ah holds Ch's
/// lowest agent), each thread taking up to `per_thread` consecutive Ah of one size (colex order).
/// A thread's fixed cost (unranking its block and first Ah, 32 atomic maxes into the block) is
/// shared by its Ah: on an H200, IDP at n = 28-29 ran 12-14% faster with 32 than with 16 (double and
/// float), 50% slower with 8, and no faster with 48 or 64 (exp/idp-tuning).
struct Layer {
  static constexpr int max_high = max_agents;
  static constexpr std::uint64_t per_thread = 32;
  int high = 0;
  std::uint64_t blocks = 0;                      ///< C(H, high)
  std::uint64_t groups[max_high + 1] = {};       ///< by p: evaluated size groups (0: p skipped)
  std::uint32_t entries_a[max_high + 1] = {};    ///< by p: the entries of Ah's block they read
  std::uint32_t entries_b[max_high + 1] = {};    ///< by p: the entries of Bh's block they read
  std::uint64_t first_chunk[max_high + 2] = {};  ///< by p: first chunk of size p within a block
  std::uint64_t chunks = 0;                      ///< chunks per block
  double splits = 0;                             ///< evaluated splits over the layer
};

inline Layer plan_layer(int n, int high_agents, int h, bool idp) {
  Layer layer;
  layer.high = h;
  layer.blocks = static_cast<std::uint64_t>(subsets::choose(high_agents, h) + 0.5);
  for (int p = 1; p <= h; ++p) {
    layer.first_chunk[p] = layer.chunks;
    if (p == h) break;  // Bh would be empty
    const std::uint64_t groups = idp ? idp_groups(n, p, h - p) : ~std::uint64_t{0};
    if (groups == 0) continue;
    layer.groups[p] = groups;
    layer.entries_a[p] = entries_read(groups, false);
    layer.entries_b[p] = entries_read(groups, true);
    const double parts = subsets::choose(h - 1, p - 1);
    layer.chunks += static_cast<std::uint64_t>((parts + Layer::per_thread - 1) / Layer::per_thread);
    double per_split = 0;
    for (int x = 0; x <= low_agents; ++x) {
      for (int y = 0; x + y <= low_agents; ++y) {
        if (groups >> group(x, y) & 1) per_split += subsets::choose(low_agents, x + y) * subsets::choose(x + y, x);
      }
    }
    layer.splits += static_cast<double>(layer.blocks) * parts * per_split;
  }
  return layer;
}

/// Splits the engine evaluates (DP: each split once; IDP: those of dep(c) and some more).
inline double evaluated_splits(int n, bool idp) {
  const int high_agents = n > low_agents ? n - low_agents : 0;
  const int low = n > low_agents ? low_agents : n;
  const double three = std::pow(3.0, low), two = std::pow(2.0, low);
  double total = (three + 1) / 2 - two;                       // block 0
  total += (std::pow(2.0, high_agents) - 1) * (three - two);  // local splits of the other blocks
  for (int h = 2; h <= high_agents; ++h) total += plan_layer(n, high_agents, h, idp).splits;
  return total;
}

/// Bytes of a block's entries `entries` in the 16-byte packets load_block reads on the GPU.
inline double packet_bytes(std::uint32_t entries, int value_bytes) {
  const int per_packet = 16 / value_bytes;
  double bytes = 0;
  for (int k = 0; k < block_size / per_packet; ++k) {
    if (packet_named(entries, k, per_packet)) bytes += 16;
  }
  return bytes;
}

/// Bytes of the block reads of the high splits (the packets of two blocks each that hold entries
/// their splits read), the engine's main traffic.
inline double block_read_bytes(int n, bool idp, int value_bytes) {
  const int high_agents = n > low_agents ? n - low_agents : 0;
  double bytes = 0;
  for (int h = 2; h <= high_agents; ++h) {
    const Layer layer = plan_layer(n, high_agents, h, idp);
    for (int p = 1; p < h; ++p) {
      if (layer.groups[p] == 0) continue;
      bytes += static_cast<double>(layer.blocks) * subsets::choose(h - 1, p - 1) *
               (packet_bytes(layer.entries_a[p], value_bytes) + packet_bytes(layer.entries_b[p], value_bytes));
    }
  }
  return bytes;
}

template <class Value, class ExecSpace>
void run_block_zero(const ExecSpace& space, Value* table) {
  Kokkos::parallel_for(
      "Kollective::Coalition::low_block", Kokkos::RangePolicy<ExecSpace>(space, 0, 1), KOKKOS_LAMBDA(const int) {
        Value acc[block_size];
        load_block(table, acc);
        low_splits(acc, std::make_index_sequence<block_size>{});
        for (int k = 0; k < block_size; ++k) table[k] = acc[k];
      });
}

template <class Policy, class Value, class Binomials>
void launch_high_splits(const Policy& policy, Value* table, const Layer& layer, const LayerShare& mine,
                        std::uint64_t first, int high_agents, const Binomials& binomial) {
  const int h = layer.high;
  Kokkos::parallel_for(
      "Kollective::Coalition::high_splits", policy, KOKKOS_LAMBDA(const std::int64_t index) {
        const std::uint64_t rank = mine.block(first + static_cast<std::uint64_t>(index) / layer.chunks);
        const std::uint64_t chunk = static_cast<std::uint64_t>(index) % layer.chunks;
        int p = 1;
        while (layer.first_chunk[p + 1] <= chunk) ++p;
        const std::uint64_t high = subsets::unrank_colex(rank, h, high_agents, binomial);
        const std::uint64_t lowest = high & (~high + 1), others = high ^ lowest;
        // This thread's Ah: lowest plus the (p - 1)-subsets of the others with colex ranks [begin, end).
        const std::uint64_t begin = (chunk - layer.first_chunk[p]) * Layer::per_thread;
        const std::uint64_t end = Kokkos::min(begin + Layer::per_thread, binomial(h - 1, p - 1));
        const std::uint64_t groups = layer.groups[p];
        const std::uint32_t entries_a = layer.entries_a[p], entries_b = layer.entries_b[p];
        Value acc[block_size];
        for (int k = 0; k < block_size; ++k) acc[k] = Kokkos::reduction_identity<Value>::max();
        std::uint64_t sub = subsets::submask(subsets::unrank_colex(begin, p - 1, h - 1, binomial), others);
        for (std::uint64_t i = begin; i < end; ++i) {
          const std::uint64_t part = lowest | sub;
          sub = subsets::next_same_size(sub, others);
          Value a[block_size], b[block_size];
          load_block(table + (part << low_agents), a, entries_a);
          load_block(table + ((high ^ part) << low_agents), b, entries_b);
          convolve(acc, a, b, groups, std::make_index_sequence<(low_agents + 1) * (low_agents + 1)>{});
        }
        Value* block = table + (high << low_agents);
        for (int k = 0; k < block_size; ++k) kollective::atomic_extremum<true>(block + k, acc[k]);
      });
}

/// The high splits of this rank's blocks of a layer, in launches of at most 2^30 threads (with
/// Kokkos 3.4, a CUDA range launch slows down several times over past 2^32 iterations, and the
/// batches cost nothing measurable). In float, the kernel is held to 128 registers so that twice
/// as many warps hide the L1 latency of the block reads, which makes it faster; double needs its
/// registers.
template <class Value, class ExecSpace, class Binomials>
void run_high_splits(const ExecSpace& space, Value* table, const Layer& layer, const LayerShare& mine, int high_agents,
                     const Binomials& binomial) {
  using Bounds = Kokkos::LaunchBounds<128, sizeof(Value) == 4 ? 4 : 1>;
  using Policy = Range64<ExecSpace, Bounds>;
  const std::uint64_t blocks_per_launch = Kokkos::max<std::uint64_t>(1, (std::uint64_t{1} << 30) / layer.chunks);
  for (std::uint64_t first = 0; first < mine.count; first += blocks_per_launch) {
    const std::uint64_t blocks = Kokkos::min(blocks_per_launch, mine.count - first);
    launch_high_splits(Policy(space, 0, static_cast<std::int64_t>(blocks * layer.chunks)), table, layer, mine, first,
                       high_agents, binomial);
  }
}

/// The local splits of this rank's blocks of layer h.
template <class Value, class ExecSpace, class Binomials>
void run_local_splits(const ExecSpace& space, Value* table, int h, const LayerShare& mine, int high_agents,
                      const Binomials& binomial) {
  Kokkos::parallel_for(
      "Kollective::Coalition::local_splits", Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(mine.count)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t high =
            subsets::unrank_colex(mine.block(static_cast<std::uint64_t>(i)), h, high_agents, binomial);
        Value low[block_size], acc[block_size];
        load_block(table, low);
        Value* block = table + (high << low_agents);
        load_block(block, acc);
        local_splits(acc, low, std::make_index_sequence<block_size>{});
        for (int k = 0; k < block_size; ++k) block[k] = acc[k];
      });
}

/// Copies blocks [first, first + count) of those of layer h that `share` names between the table
/// and consecutive blocks of `packed` (to_table: from packed into the table).
template <class Value, class ExecSpace, class Binomials>
void copy_layer_blocks(const ExecSpace& space, Value* table, Value* packed, int h, const LayerShare& share,
                       std::uint64_t first, std::uint64_t count, bool to_table, int high_agents,
                       const Binomials& binomial) {
  Kokkos::parallel_for(
      "Kollective::Coalition::copy_layer_blocks", Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(count)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t high =
            subsets::unrank_colex(share.block(first + static_cast<std::uint64_t>(i)), h, high_agents, binomial);
        Value* in_table = table + (high << low_agents);
        Value* in_packed = packed + i * block_size;
        for (int k = 0; k < block_size; ++k) {
          if (to_table) {
            in_table[k] = in_packed[k];
          } else {
            in_packed[k] = in_table[k];
          }
        }
      });
}

/// The most bytes a shared solve's exchange buffer takes: a layer larger than that is gathered
/// in rounds, so that the buffer stays small beside the table (at n = 33 in double, two ranks'
/// largest layer took 9.6 GiB beside the 64 GiB table and the 64 GiB of values made on the GPU:
/// more than an H200 had). Tests lower it to run several rounds on small games.
inline std::uint64_t exchange_buffer_bytes = std::uint64_t{1} << 30;

/// Blocks each rank sends in one round of a layer's gathering.
template <class Value>
std::uint64_t exchange_round_blocks(int ranks) {
  return Kokkos::max<std::uint64_t>(1, exchange_buffer_bytes / (block_size * sizeof(Value)) / ranks);
}

/// Every rank's blocks of layer h written into every rank's table, in rounds of at most `round`
/// blocks a rank through `exchange` (ranks x round blocks); returns the fenced seconds it took.
template <class Value, class ExecSpace, class Binomials>
double gather_layer(const ExecSpace& space, const comm::Communicator& communicator, Value* table, Value* exchange,
                    std::uint64_t round, int h, std::uint64_t blocks, int high_agents, const Binomials& binomial) {
  space.fence();  // the layer's own work is not exchange time
  Kokkos::Timer timer;
  const int rank = communicator.rank(), ranks = communicator.size();
  std::vector<LayerShare> shares;
  for (int r = 0; r < ranks; ++r) shares.emplace_back(blocks, r, ranks);
  for (std::uint64_t first = 0; first < shares[0].share; first += round) {  // rank 0 has the most: all take part
    const auto in_round = [&](int r) {
      return shares[r].count > first ? Kokkos::min(round, shares[r].count - first) : std::uint64_t{0};
    };
    copy_layer_blocks(space, table, exchange + rank * round * block_size, h, shares[rank], first, in_round(rank), false,
                      high_agents, binomial);
    comm::allgather_parts(space, communicator, exchange, round * block_size);
    for (int r = 0; r < ranks; ++r) {
      if (r == rank || in_round(r) == 0) continue;
      copy_layer_blocks(space, table, exchange + r * round * block_size, h, shares[r], first, in_round(r), true,
                        high_agents, binomial);
    }
  }
  space.fence();
  return timer.seconds();
}

/// A split {part, set \ part} whose f values add up to f(set) exactly (the first in submask
/// order), or 0 when there is none. The first is an atomic min over the matching splits, which is
/// the same in any order, rather than a parallel_reduce (Kokkos 3.4's CUDA scalar reduction
/// joined in shared memory without warp barriers: compute-sanitizer racecheck hazards).
template <class Value, class ExecSpace>
std::uint64_t find_maximising_split(const ExecSpace& space, const Value* table, std::uint64_t set) {
  const std::uint64_t lowest = set & (~set + 1), others = set ^ lowest;
  const std::int64_t splits = (std::int64_t{1} << (Kokkos::Experimental::popcount_builtin(set) - 1)) - 1;
  Kokkos::View<std::int64_t, typename ExecSpace::memory_space> first(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Coalition::first_split"));
  Kokkos::deep_copy(space, first, splits);
  std::int64_t* const found = first.data();
  Kokkos::parallel_for(
      "Kollective::Coalition::recover", Range64<ExecSpace>(space, 0, splits), KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t part = lowest | subsets::submask(static_cast<std::uint64_t>(i), others);
        if (table[part] + table[set ^ part] == table[set]) kollective::atomic_extremum<false>(found, i);
      });
  std::int64_t result = splits;
  Kokkos::deep_copy(space, result, first);
  space.fence();
  return result < splits ? lowest | subsets::submask(static_cast<std::uint64_t>(result), others) : 0;
}

/// n, for `count` = 2^n values with n in 1..max_agents; else fails, `caller` first.
inline int agents_of(std::size_t count, const char* caller) {
  for (int n = 1; n <= max_agents; ++n) {
    if (count == std::size_t{1} << n) return n;
  }
  fail(caller, ": ", count, " values are not 2^n for a game of 1..", max_agents, " agents");
}

/// Entry i of a View in any memory, read on the host.
template <class View>
typename View::non_const_value_type entry(const View& view, std::uint64_t i) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(view, i))();
}

/// The solve; its table, exchange and staging buffers in `workspace` (Workspace.hpp), or allocated
/// for it alone (null); the values read from `on_device` where given (auto's copy, values_on, or
/// the caller's values on the device: then `values.v` may be null where the method is dp or idp).
/// `after_layer` (auto, one rank) sees the table after each layer but the last and may stop the
/// solve there: a result not exact, no value.
template <class Value, class ExecSpace>
Result solve(const ExecSpace& space, Values values, const Options& options,
             Workspace<typename ExecSpace::memory_space>* workspace = nullptr,
             const Kokkos::View<const double*, typename ExecSpace::memory_space>& on_device = {},
             const LayerHook<typename ExecSpace::memory_space>& after_layer = {}) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Coalition::solve");
  using Memory = typename ExecSpace::memory_space;
  const int n = values.agents;
  if (n < 1 || n > max_agents) fail("coalition structure generation: ", n, " agents outside 1..", max_agents);
  if (values.count != values.size())
    fail("coalition structure generation: ", values.count, " values for ", n, " agents");
  if (const auto problem = check(options))
    fail("coalition structure generation: ", problem->option, " ", problem->problem);
  if (options.method == Method::ip) return solve_ip(space, values, options, {}, on_device);
  if (options.method == Method::automatic) {
    return solve_automatic<Value>(
        space, values, options,
        [&](const Options& idp, const Kokkos::View<const double*, Memory>& shared_values,
            const LayerHook<Memory>& hook) { return solve<Value>(space, values, idp, workspace, shared_values, hook); },
        {}, on_device);
  }
  const bool idp = options.method == Method::idp;
  const int high_agents = n > low_agents ? n - low_agents : 0;
  const std::uint64_t coalitions = std::uint64_t{1} << n;
  const std::uint64_t entries = std::uint64_t{1} << (high_agents + low_agents);  // at least one block
  // Across ranks, every rank holds the whole table, plus a buffer to gather the layers through.
  const comm::Communicator& communicator = options.communicator;
  const int ranks = communicator.size();
  std::uint64_t round = 0;  // blocks a rank sends in a round: at most a layer's share
  for (int h = 1; h <= high_agents && ranks > 1; ++h) {
    round = Kokkos::max(round, LayerShare(plan_layer(n, high_agents, h, idp).blocks, 0, ranks).share);
  }
  round = Kokkos::min(round, exchange_round_blocks<Value>(ranks));
  const std::uint64_t exchange_blocks = round * static_cast<std::uint64_t>(ranks);
  const std::uint64_t staged =  // the float conversion's buffer, unless the values are on the device
      std::is_same_v<Value, double> || on_device.data() != nullptr ? 0 : Kokkos::min(coalitions, upload_chunk);
  auto check_memory = [&] {
    require_memory(
        memory_kind<Memory>(),
        static_cast<std::int64_t>((entries + exchange_blocks * block_size) * sizeof(Value) + staged * 8),
        "the coalition value table of " + std::to_string(n) + " agents" +
            (ranks > 1 ? " and its buffer to gather layers from " + std::to_string(ranks) + " ranks" : std::string()));
    return 0;
  };
  // Every rank of a shared solve passes a workspace alike, so all of them check, or none.
  const std::vector<std::int64_t> shape = {n, static_cast<std::int64_t>(sizeof(Value)), ranks, idp};
  const bool reuse = workspace && workspace->holds(shape);
  if (workspace && !reuse) workspace->release();  // before the memory check, which then sees its bytes free
  if (!reuse && ranks > 1) {
    communicator.on_every_rank(check_memory);  // no rank allocates unless every rank's table fits
  } else if (!reuse) {
    check_memory();
  }
  Kokkos::View<Value*, Memory> exchange, f;
  Kokkos::View<double*, Memory> staging;
  if (workspace) {
    if (!reuse) workspace->adopt(shape);
    workspace->reserve({exchange_blocks * block_size * sizeof(Value), entries * sizeof(Value), staged * 8});
    exchange = workspace->template segment<Value>(0);
    f = workspace->template segment<Value>(1);
    staging = workspace->template segment<double>(2);
  } else {
    exchange = Kokkos::View<Value*, Memory>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Coalition::exchange"),
        exchange_blocks * block_size);
    f = Kokkos::View<Value*, Memory>(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Coalition::f"),
                                     entries);
  }
  upload_values(space, values, f, staging, on_device);
  Value* table = f.data();
  const auto binomial = subsets::binomial_table<Memory>(space, high_agents);

  Progress progress(options.reporter,
                    "Coalition " + std::string(to_string(options.method)) + " (n=" + std::to_string(n) + ")",
                    high_agents + 1);
  run_block_zero(space, table);
  double exchange_seconds = 0;
  for (int h = 1; h <= high_agents; ++h) {
    const Layer layer = plan_layer(n, high_agents, h, idp);
    const LayerShare mine(layer.blocks, communicator.rank(), ranks);
    if (layer.chunks != 0) run_high_splits(space, table, layer, mine, high_agents, binomial);
    run_local_splits(space, table, h, mine, high_agents, binomial);
    if (ranks > 1)
      exchange_seconds +=
          gather_layer(space, communicator, table, exchange.data(), round, h, layer.blocks, high_agents, binomial);
    space.fence();
    progress.update(h + 1);
    if (h < high_agents && after_layer && after_layer(h, table_in_double(f))) {
      Result stopped;
      stopped.exact = false;
      return stopped;
    }
  }
  progress.finish();

  // Recovery: a coalition whose f equals v is a block of the structure; otherwise some split
  // reproduces its f exactly (f values are sums computed the same way), and both parts recurse.
  Result result;
  result.method = to_string(options.method);
  result.splits = evaluated_splits(n, idp);
  result.ranks = ranks;
  result.exchange_s = exchange_seconds;
  const std::uint64_t all = coalitions - 1;
  result.value = static_cast<double>(entry(f, all));
  std::vector<std::uint64_t> pending = {all};
  while (!pending.empty()) {
    const std::uint64_t set = pending.back();
    pending.pop_back();
    if (entry(f, set) == static_cast<Value>(values.v ? values.v[set] : entry(on_device, set))) {
      result.structure.push_back(set);
      continue;
    }
    const std::uint64_t part = find_maximising_split(space, table, set);
    // A proper part whose two f values add up to f(set): else recovery would loop or be wrong.
    const bool proper = part != 0 && part != set && (part & ~set) == 0;
    if (!proper || entry(f, part) + entry(f, set ^ part) != entry(f, set))
      fail("internal error: coalition structure recovery found no split of coalition ", set);
    pending.push_back(part);
    pending.push_back(set ^ part);
  }
  std::sort(result.structure.begin(), result.structure.end());
  result.upper_bound = result.value;
  return result;
}

}  // namespace kollective::coalition::Impl

#endif
