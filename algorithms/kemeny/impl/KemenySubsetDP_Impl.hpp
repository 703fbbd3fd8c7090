#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_SUBSET_DP_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_SUBSET_DP_IMPL_HPP

/// \file KemenySubsetDP_Impl.hpp
/// Exact Kemeny by dynamic programming over subsets (Betzler et al. 2009): with S the set of the
/// top |S| alternatives, best[S] = min over c in S of best[S \ c] + cost(c, S), cost(c, S) =
/// sum over b in S of o[c][b] (c placed below every other member of S), ways[S] the optimal
/// orderings of S (saturating at 2^64 - 1). Layers by popcount run one after another; within a
/// layer every subset is independent (colex unranking, one per work item).
///
/// On one rank the tables hold all 2^n sets. Across 2^d ranks each holds 1 / 2^d of them: the
/// top D = d + 1 alternatives split the sets into 2^D parts. Part v holds the sets S whose top D
/// bits are v, stored by their low part L (the other m = n - D alternatives), 2^m entries. Part v
/// belongs to rank gray(v) mod 2^d, so each rank holds a part and its complement, whose layers
/// mirror each other in size: every layer is spread evenly over the ranks (one part per rank,
/// D = d, would leave the layers 57% on one rank of two, capping 2 ranks at 1.75x one). Taking a
/// low alternative out of S stays in its part; taking out top alternative m + j leads to part v
/// with bit j cleared, at the same L, always on another rank. So for layer k, each part needs
/// layer k - 1 of each such lower part, whose sets there have low parts of the same size: the
/// owner sends that layer packed in colex order of L, and S finds its entry at its own colex
/// rank. Where two or more lower parts of a part live on one other rank (two ranks: part 3
/// reads parts 1 and 2), that rank sends instead, for each set, the best over those candidates
/// with their cost added (one layer instead of two each way). The kernels that compute a layer
/// others read also write it packed (or merged) as they go. The DP runs in steps: part v's layers
/// start |v| steps late (|v|: its top count), so what a part reads from its lower parts was
/// computed two steps earlier and travels, on a stream of its own, while the step between
/// computes (one step earlier, between the steps, where the second buffers do not fit). Each set
/// is computed as on one rank (minimum and saturating count over the same candidates), so the
/// tables are identical bit for bit. Of P ranks, the largest power of two <= P take part; the others only join the
/// collectives that read the result.
/// Do not include directly: include algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyShares_Impl.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyTables_Impl.hpp"
#include "kollective/core/Workspace.hpp"
#include "kollective/core/comm/ViewCollectives.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

/// Keeps the smaller of (minimum, count) and a candidate's value, adding the candidate's count
/// ways(at) on a tie. The count is read only when the candidate ties or beats the minimum
/// (reading it for every candidate makes a layer take about 1.5 times as long on a GPU).
template <class Distance, class Ways>
KOKKOS_INLINE_FUNCTION void take_candidate(Distance& minimum, std::uint64_t& count, Distance value, const Ways& ways,
                                           std::uint64_t at) {
  if (value < minimum) {
    minimum = value;
    count = ways(at);
  } else if (value == minimum) {
    count = subsets::saturating_add(count, ways(at));
  }
}

/// The DP's buffers in `workspace`, allocated unless held: best and ways of this rank's parts
/// (segments 0 and 1), then the layers it sends and receives (2-5, see LayerTrade).
template <class Distance, class Memory>
void reserve_dp_buffers(Workspace<Memory>& workspace, const Layout& l) {
  const std::size_t entries = l.parts.size() << l.low_bits();
  const std::size_t largest = l.part_bits > 0 ? l.largest_layer() : 0;
  const std::size_t sent = l.buffers * l.send_slots() * largest, got = l.buffers * l.got_slots() * largest;
  constexpr std::size_t distance = sizeof(Distance), count = sizeof(std::uint64_t);
  workspace.reserve({entries * distance, entries * count, sent * distance, sent * count, got * distance, got * count});
}

/// The layers one rank sends and receives (room for a largest layer each, `buffers` times over,
/// in the workspace), and the subset sizes.
template <class Distance, class Memory>
struct LayerTrade {
  std::uint64_t largest = 0;
  std::size_t send_slots = 0, got_slots = 0;
  Kokkos::View<Distance*, Memory> send_best, got_best;
  Kokkos::View<std::uint64_t*, Memory> send_ways, got_ways;
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> binomial;
  typename Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>::HostMirror sizes;
  int m = 0;

  /// Not zeroed: the steps write what they send, and read only what arrived.
  LayerTrade(const Layout& l, const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>& binomial_table,
             const Workspace<Memory>& workspace)
      : largest(l.part_bits > 0 ? l.largest_layer() : 0),
        send_slots(l.send_slots()),
        got_slots(l.got_slots()),
        send_best(workspace.template segment<Distance>(2)),
        got_best(workspace.template segment<Distance>(4)),
        send_ways(workspace.template segment<std::uint64_t>(3)),
        got_ways(workspace.template segment<std::uint64_t>(5)),
        binomial(binomial_table),
        sizes(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), binomial_table)),
        m(l.low_bits()) {}
  /// Sets of a part's low size s.
  std::uint64_t layer_size(int s) const { return s < 0 || s > m ? 0 : sizes(m, s); }
  /// Where send slot `slot` and receive slot `slot` of buffer `parity` begin.
  std::uint64_t send_at(int parity, std::size_t slot) const { return (parity * send_slots + slot) * largest; }
  std::uint64_t got_at(int parity, std::size_t slot) const { return (parity * got_slots + slot) * largest; }
};

/// Posts the trade of step t (what this rank's parts computed in it that other ranks read, and
/// what they receive) on `exchange_space`, which runs it while later steps compute.
template <class Distance, class ExecSpace>
void post_step(const ExecSpace& exchange_space, const Layout& l,
               const LayerTrade<Distance, typename ExecSpace::memory_space>& trade, int t) {
  const int parity = t % l.buffers;
  std::vector<comm::Transfer> sends, receives;
  const LayerMessages messages = step_messages(l, t, [&](int s) { return trade.layer_size(s); });
  for (const LayerMessage& message : messages.sends) {
    const std::uint64_t at = trade.send_at(parity, message.slot);
    sends.push_back({trade.send_best.data() + at, message.count * sizeof(Distance), message.rank});
    sends.push_back({trade.send_ways.data() + at, message.count * sizeof(std::uint64_t), message.rank});
  }
  for (const LayerMessage& message : messages.receives) {
    const std::uint64_t at = trade.got_at(parity, message.slot);
    receives.push_back({trade.got_best.data() + at, message.count * sizeof(Distance), message.rank});
    receives.push_back({trade.got_ways.data() + at, message.count * sizeof(std::uint64_t), message.rank});
  }
  comm::exchange_parts(exchange_space, l.communicator, sends, receives);
}

/// Step t of part q (index in l.parts): each set's best and ways from its candidates here and
/// those received, also written where other ranks read them (part_outputs).
template <class Distance, class ExecSpace>
void dp_step(const ExecSpace& space, const SubsetTables<Distance, typename ExecSpace::memory_space>& t, const Layout& l,
             const LayerTrade<Distance, typename ExecSpace::memory_space>& trade, std::size_t q, int step) {
  const int v = l.parts[q], m = l.low_bits(), s = low_size_at(l, v, step);
  if (s < 0 || s > m) return;
  const int parity = step % l.buffers;
  const bool first_layer = s + top_count(v) == 0;
  const std::uint64_t base = static_cast<std::uint64_t>(q) << m, high = static_cast<std::uint64_t>(v) << m;
  const std::uint64_t got = trade.got_at(parity, 0), sent = trade.send_at(parity, 0), largest = trade.largest;
  const TopSlots slots = top_slots(l, v);
  const PartOutputs out = part_outputs(l, v);
  const auto tables = t;
  const auto best = t.best;
  const auto ways = t.ways;
  const auto binomial = trade.binomial;
  const auto got_best = trade.got_best;
  const auto got_ways = trade.got_ways;
  const auto send_best = trade.send_best;
  const auto send_ways = trade.send_ways;
  // At most 40 registers a thread on sm_90: 12 blocks of 128 threads an SM (75% occupancy, no
  // spills) instead of the compiler's 46 (62.5%), which makes the layers a few percent faster.
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, Kokkos::LaunchBounds<128, 12>>;
  Kokkos::parallel_for(
      "Kollective::Kemeny::dp_layer", Policy(space, 0, static_cast<std::int64_t>(trade.layer_size(s))),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t low_part = subsets::unrank_colex(static_cast<std::uint64_t>(i), s, m, binomial);
        const std::uint64_t set = low_part | high;
        Distance minimum = first_layer ? 0 : ~Distance{0};
        std::uint64_t count = first_layer ? 1 : 0;
        for (std::uint64_t rest = low_part; rest != 0; rest &= rest - 1) {
          const int c = Kokkos::Experimental::countr_zero_builtin(rest);
          const std::uint64_t without = base + (low_part ^ (std::uint64_t{1} << c));
          take_candidate(minimum, count, best(without) + tables.cost(c, set), ways, without);
        }
        for (int slot = 0; slot < slots.count; ++slot) {
          const std::uint64_t at = got + static_cast<std::uint64_t>(slots.at[slot]) * largest + i;
          const Distance cost = slots.bit[slot] < 0 ? Distance{0} : tables.cost(m + slots.bit[slot], set);
          take_candidate(minimum, count, got_best(at) + cost, got_ways, at);
        }
        best(base + low_part) = minimum;
        ways(base + low_part) = count;
        if (out.as_is >= 0) {
          send_best(sent + static_cast<std::uint64_t>(out.as_is) * largest + i) = minimum;
          send_ways(sent + static_cast<std::uint64_t>(out.as_is) * largest + i) = count;
        }
        for (int e = 0; e < out.count; ++e) {  // the candidates of a merged part above
          const std::uint64_t above = low_part | static_cast<std::uint64_t>(v | 1 << out.bit[e]) << m;
          Distance merged = minimum + tables.cost(m + out.bit[e], above);
          std::uint64_t merged_ways = count;
          for (int k = out.others_begin[e]; k < out.others_begin[e + 1]; ++k) {
            const std::uint64_t other = (static_cast<std::uint64_t>(out.others_index[k]) << m) + low_part;
            take_candidate(merged, merged_ways, best(other) + tables.cost(m + out.others_bit[k], above), ways, other);
          }
          const std::uint64_t at = sent + static_cast<std::uint64_t>(out.slot[e]) * largest + i;
          send_best(at) = merged;
          send_ways(at) = merged_ways;
        }
      });
}

/// Another instance of `space` for the trades, so that they overlap the steps (on a CUDA stream of
/// its own); host memory is traded by MPI at once, on `space` itself.
template <class ExecSpace>
ExecSpace exchange_instance(const ExecSpace& space) {
  if constexpr (comm::Impl::on_host<ExecSpace>()) {
    return space;
  } else {
    return Kokkos::Experimental::partition_space(space, 1)[0];
  }
}

/// This rank's parts of the tables (best and ways, part i at i 2^m, by low part, held by
/// `workspace`), and the seconds the steps waited for trades.
template <class Distance, class ExecSpace>
SubsetTables<Distance, typename ExecSpace::memory_space> run_dp(const ExecSpace& space, const Counts& o,
                                                                const Layout& l,
                                                                Workspace<typename ExecSpace::memory_space>& workspace,
                                                                double& exchange_seconds,
                                                                const Reporter& reporter = {}) {
  using Memory = typename ExecSpace::memory_space;
  const int n = o.alternatives;
  SubsetTables<Distance, Memory> t = cost_tables<Distance>(space, o);
  reserve_dp_buffers<Distance>(workspace, l);
  t.best = workspace.template segment<Distance>(0);
  t.ways = workspace.template segment<std::uint64_t>(1);
  const LayerTrade<Distance, Memory> trade(l, subsets::binomial_table<Memory>(space, n), workspace);
  const ExecSpace exchange_space = l.part_bits > 0 ? exchange_instance(space) : space;
  Progress progress(reporter,
                    "Kemeny subset DP (n=" + std::to_string(n) +
                        (l.shared ? ", " + std::to_string(1 << l.rank_bits) + " ranks)" : ")"),
                    steps(l));
  for (int step = 0; step < steps(l); ++step) {
    for (std::size_t q = 0; q < l.parts.size(); ++q) dp_step(space, t, l, trade, q, step);
    space.fence();
    if (l.part_bits > 0 && step + 1 < steps(l)) {
      WallTimer waited;
      exchange_space.fence();  // the trade of the step before (its buffers are written next)
      post_step(exchange_space, l, trade, step);
      if (l.buffers == 1) exchange_space.fence();  // read by the next step
      exchange_seconds += waited.seconds();
    }
    try {
      progress.update(step + 1);  // an interruption point
    } catch (...) {
      exchange_space.fence();  // the trade in flight writes the caller's workspace
      throw;
    }
  }
  exchange_space.fence();
  progress.finish();
  return t;
}

/// Reads best and ways of `sets` wherever they live: each rank gathers those it owns (one
/// kernel, one copy) and the ranks add up, so every rank gets all of them (values[2 i] = best,
/// values[2 i + 1] = ways).
template <class Distance, class ExecSpace>
std::vector<std::int64_t> read_sets(const ExecSpace& space,
                                    const SubsetTables<Distance, typename ExecSpace::memory_space>& t, const Layout& l,
                                    const std::vector<std::uint64_t>& sets) {
  using Memory = typename ExecSpace::memory_space;
  const int m = l.low_bits();
  std::vector<std::int64_t> values(2 * sets.size(), 0);
  std::vector<std::uint64_t> owned;  // where this rank holds the sets it holds
  std::vector<std::size_t> slot;     // their places in `sets`
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const int q = l.index_of(static_cast<int>(sets[i] >> m));
    if (q < 0) continue;
    owned.push_back(static_cast<std::uint64_t>(q) << m | (sets[i] & ((std::uint64_t{1} << m) - 1)));
    slot.push_back(i);
  }
  if (!owned.empty()) {
    Kokkos::View<std::uint64_t*, Memory> parts(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::read_parts"), owned.size());
    Kokkos::deep_copy(
        space, parts,
        Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(owned.data(), owned.size()));
    Kokkos::View<std::int64_t*, Memory> read(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::read_values"), 2 * owned.size());
    const auto best = t.best;
    const auto ways = t.ways;
    Kokkos::parallel_for(
        "Kollective::Kemeny::read_sets", Kokkos::RangePolicy<ExecSpace>(space, 0, static_cast<int>(owned.size())),
        KOKKOS_LAMBDA(const int i) {
          read(2 * i) = static_cast<std::int64_t>(best(parts(i)));
          read(2 * i + 1) = static_cast<std::int64_t>(ways(parts(i)));
        });
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), read);
    for (std::size_t k = 0; k < slot.size(); ++k) {
      values[2 * slot[k]] = host(2 * k);
      values[2 * slot[k] + 1] = host(2 * k + 1);
    }
  }
  if (l.shared) l.communicator.allreduce_sum(values);  // one owner per set: the others add zeros
  return values;
}

/// cost(c, set) from the host's counts, as the device tables hold it.
template <class Distance>
Distance host_cost(const Counts& o, int c, std::uint64_t set) {
  Distance sum = 0;
  for (std::uint64_t rest = set; rest != 0; rest &= rest - 1) sum += o.at(c, Kokkos::countr_zero(rest));
  return sum;
}

/// Up to `limit` optimal rankings, in the order of a depth-first walk that places the last
/// alternative first and tries candidates in ascending order. The walk goes one level at a time,
/// reading every child of the level's sets at once (one collective per level, not per set):
/// every set reached leads to an optimum, so the first `limit` sets of each level, in walk
/// order, lead to the first `limit` optima. Every rank walks alike.
template <class Distance, class ExecSpace>
std::vector<Ranking> list_optima(const ExecSpace& space,
                                 const SubsetTables<Distance, typename ExecSpace::memory_space>& t, const Layout& l,
                                 const Counts& o, Distance optimum, int limit) {
  struct Node {
    std::uint64_t set;  ///< the alternatives not yet placed (the top of the ranking)
    Distance best;      ///< best[set]
    Ranking below;      ///< placed, from the bottom up
  };
  constexpr std::size_t most_read = std::size_t{1} << 20;  // sets per read: bounds its buffers
  std::vector<Node> level = {{(std::uint64_t{1} << o.alternatives) - 1, optimum, {}}};
  for (int placed = 0; placed < o.alternatives; ++placed) {
    std::vector<Node> next;
    // The level's nodes a batch at a time, until the next level is full.
    for (std::size_t first = 0; first < level.size() && static_cast<int>(next.size()) < limit;) {
      std::size_t end = first;
      std::vector<std::uint64_t> children;
      for (; end < level.size() && (end == first || children.size() + o.alternatives <= most_read); ++end) {
        for (std::uint64_t rest = level[end].set; rest != 0; rest &= rest - 1)
          children.push_back(level[end].set ^ (rest & (~rest + 1)));
      }
      const std::vector<std::int64_t> values = read_sets(space, t, l, children);
      std::size_t i = 0;
      for (; first < end; ++first) {
        const Node& node = level[first];
        for (std::uint64_t rest = node.set; rest != 0; rest &= rest - 1, ++i) {
          const int c = Kokkos::countr_zero(rest);
          const auto best = static_cast<Distance>(values[2 * i]);
          if (static_cast<int>(next.size()) == limit ||
              static_cast<Distance>(best + host_cost<Distance>(o, c, node.set)) != node.best) {
            continue;
          }
          next.push_back({children[i], best, node.below});
          next.back().below.push_back(c);
        }
      }
    }
    level = std::move(next);
  }
  std::vector<Ranking> optima;
  for (const Node& node : level) optima.emplace_back(node.below.rbegin(), node.below.rend());
  return optima;
}

/// 2 (trades overlap the steps) where every rank's share fits with two buffers per traded layer
/// in 9/10 of its memory, else 1; the same on every rank.
inline int agreed_buffers(MemoryKind memory, Layout l, int distance_bytes) {
  l.buffers = 2;
  const bool fits = l.rank < 0 || dp_rank_bytes(l, distance_bytes) <= available_bytes(memory) / 10 * 9;
  return l.communicator.holds_on_every_rank(fits) ? 2 : 1;
}

/// What makes two DPs' buffers alike (Workspace).
inline std::vector<std::int64_t> dp_shape(const Layout& l, int distance_bytes) {
  return {l.n, distance_bytes, l.shared, l.communicator.size(), l.rank};
}

/// The subset DP on this rank alone, or shared by the ranks of options.communicator (each holds
/// a share of the tables, and every rank gets the same Result), in `workspace`'s buffers.
template <class Distance, class ExecSpace>
Result solve_dp_with(const ExecSpace& space, const Counts& o, const Options& options,
                     Workspace<typename ExecSpace::memory_space>& workspace) {
  const int n = o.alternatives;
  constexpr MemoryKind memory = memory_kind<typename ExecSpace::memory_space>();
  Layout l = options.communicator.size() > 1 ? layout(n, options.communicator) : alone(n);
  const std::vector<std::int64_t> shape = dp_shape(l, sizeof(Distance));
  // Every rank of a shared DP gave its workspace the same shapes, so all of them check, or none.
  if (!workspace.holds(shape)) {
    workspace.release();  // before the memory checks, which then see its bytes free
    if (l.shared) {
      l.communicator.on_every_rank([&] {  // no rank allocates unless every rank's share fits
        if (l.rank >= 0) require_rank_memory(memory, l, sizeof(Distance), "");
        return 0;
      });
      l.buffers = agreed_buffers(memory, l, sizeof(Distance));
    } else {
      require_memory(memory, dp_bytes(n, sizeof(Distance)),
                     "the Kemeny subset DP over " + std::to_string(n) + " alternatives");
    }
    workspace.adopt(shape, l.buffers);
  }
  l.buffers = workspace.buffers();
  if (l.shared) {
    l.communicator.prepare_device_collectives();
    if ((1 << l.rank_bits) < l.communicator.size() && options.reporter.log) {
      options.reporter.log("Kemeny subset DP over " + std::to_string(n) + " alternatives: " +
                           std::to_string(1 << l.rank_bits) + " of " + std::to_string(l.communicator.size()) +
                           " ranks take part (a power of two, at most 2^(n-2)); the others wait");
    }
  }
  Result result;
  SubsetTables<Distance, typename ExecSpace::memory_space> t;
  t.n = n;
  WallTimer dp;
  if (l.rank >= 0) t = run_dp<Distance>(space, o, l, workspace, result.exchange_s, options.reporter);
  result.dp_layers_s = dp.seconds();  // run_dp ends fenced
  const std::uint64_t full = (std::uint64_t{1} << n) - 1;
  const std::vector<std::int64_t> root = read_sets(space, t, l, {full});
  result.distance = static_cast<std::uint64_t>(root[0]);
  result.count = static_cast<std::uint64_t>(root[1]);
  result.count_saturated = result.count == ~std::uint64_t{0};
  result.exact = true;
  result.count_known = true;
  result.lower_bound = result.distance;
  result.optima = list_optima(space, t, l, o, static_cast<Distance>(root[0]), std::max(1, options.list_limit));
  result.component_sizes = {n};
  result.method = "dp";
  result.ranks = 1 << l.rank_bits;
  return result;
}

}  // namespace kollective::kemeny::Impl

#endif
