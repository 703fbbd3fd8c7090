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
/// rank. Each set is computed as on one rank (minimum and saturating count over the same
/// candidates), so the tables are identical bit for bit. Of P ranks, the largest power of two
/// <= P take part; the others only join the collectives that read the result.
/// Do not include directly: include algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "algorithms/kemeny/KemenyTypes.hpp"
#include "algorithms/kemeny/impl/KemenyTables_Impl.hpp"
#include "core/comm/ViewCollectives.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Progress.hpp"
#include "core/Timer.hpp"
#include "core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

/// How 2^d ranks share the DP of n alternatives, and what one rank holds, sends and receives.
struct Layout {
  static constexpr int max_part_bits = 16;
  int n = 0;
  int rank_bits = 0;          ///< d: 2^d ranks take part
  int part_bits = 0;          ///< D: the top D alternatives pick a set's part (0 with one rank, else d + 1)
  int rank = 0;               ///< this rank, or -1 when it does not take part
  std::vector<int> parts;     ///< the parts this rank holds, ascending
  std::vector<int> sent;      ///< those that some other rank reads (all but the top part)
  std::vector<int> received;  ///< the parts below this rank's parts, ascending

  int low_bits() const { return n - part_bits; }
  int owner(int part) const { return (part ^ part >> 1) & ((1 << rank_bits) - 1); }
  bool shared = true;  ///< the ranks share the DP (collectives); false: this rank alone

  /// Entries of the largest layer of one part (a packed layer's room).
  std::uint64_t largest_layer() const {
    return static_cast<std::uint64_t>(subsets::choose(low_bits(), low_bits() / 2) + 0.5);
  }
  /// The ranks that read part w (owners of the parts above it), ascending.
  std::vector<int> readers(int w) const {
    std::vector<int> ranks;
    for (int j = 0; j < part_bits; ++j) {
      if (!(w >> j & 1)) ranks.push_back(owner(w | 1 << j));
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
    if (l.owner(v) != l.rank) continue;
    l.parts.push_back(v);
    if (v != (1 << l.part_bits) - 1) l.sent.push_back(v);
    for (int j = 0; j < l.part_bits; ++j) {
      if (v >> j & 1) l.received.push_back(v ^ 1 << j);
    }
  }
  std::sort(l.received.begin(), l.received.end());
  l.received.erase(std::unique(l.received.begin(), l.received.end()), l.received.end());
  return l;
}

/// The whole DP on this rank, outside any collective (the ranks solve other inputs).
inline Layout alone(int n) {
  Layout l = layout(n, 1, 0);
  l.shared = false;
  return l;
}

/// Bytes one rank needs for the DP of n alternatives: the one-rank DP's (dp_bytes), with its 2^n
/// entries of best and ways replaced by this rank's parts and a largest layer for each part it
/// sends or receives.
inline std::int64_t dp_rank_bytes(const Layout& l, int distance_bytes) {
  const double entry = distance_bytes + 8;
  const double held = std::ldexp(static_cast<double>(l.parts.size()), l.low_bits()) +
                      static_cast<double>(l.sent.size() + l.received.size()) * static_cast<double>(l.largest_layer());
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
inline void require_rank_memory(const Layout& l, int distance_bytes, const std::string& of) {
  const std::int64_t needed = dp_rank_bytes(l, distance_bytes);
  const std::string what = "this rank's share of the Kemeny subset DP over " + std::to_string(l.n) + " alternatives" +
                           of + " on " + std::to_string(1 << l.rank_bits) + " ranks";
  const std::int64_t available = available_device_bytes();
  if (needed > available) {
    int enough = 2 << l.rank_bits;
    while (enough < 1024 && dp_most_rank_bytes(l.n, enough, distance_bytes) > available) enough *= 2;
    fail(what, " needs ", format_bytes(static_cast<double>(needed)), " of device memory but only ",
         format_bytes(static_cast<double>(available)), " is available; with ", enough,
         " ranks (one GPU each) a share would take ",
         format_bytes(static_cast<double>(dp_most_rank_bytes(l.n, enough, distance_bytes))));
  }
  require_device_memory(needed, what);
}

/// The candidates of top alternative m + j of a part: where its lower part's layer arrives.
using TopSlots = Kokkos::Array<int, Layout::max_part_bits>;

/// This rank's parts of the tables (best and ways, part i at i 2^m, by low part), and the
/// seconds spent exchanging layers.
template <class Distance, class ExecSpace>
SubsetTables<Distance, typename ExecSpace::memory_space> run_dp(const ExecSpace& space, const Counts& o,
                                                                const Layout& l, double& exchange_seconds) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const int n = o.alternatives, m = l.low_bits();
  SubsetTables<Distance, Memory> t = cost_tables<Distance>(space, o);
  const std::size_t entries = l.parts.size() << m;
  t.best =
      decltype(t.best)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::best"), entries);
  t.ways =
      decltype(t.ways)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::ways"), entries);
  const std::uint64_t largest = l.part_bits > 0 ? l.largest_layer() : 0;
  Kokkos::View<Distance*, Memory> send_best("Kollective::Kemeny::send_best", l.sent.size() * largest),
      got_best("Kollective::Kemeny::got_best", l.received.size() * largest);
  Kokkos::View<std::uint64_t*, Memory> send_ways("Kollective::Kemeny::send_ways", l.sent.size() * largest),
      got_ways("Kollective::Kemeny::got_ways", l.received.size() * largest);
  const auto binomial_device = subsets::binomial_table<Memory>(space, n);
  const auto sizes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), binomial_device);
  auto layer_size = [&](int s) -> std::uint64_t { return s < 0 || s > m ? 0 : sizes(m, s); };
  auto top_count = [](int part) { return Kokkos::popcount(static_cast<unsigned>(part)); };

  const auto tables = t;
  const auto best = t.best;
  const auto ways = t.ways;
  const auto binomial_table = binomial_device;
  Progress progress("Kemeny subset DP (n=" + std::to_string(n) +
                        (l.shared ? ", " + std::to_string(1 << l.rank_bits) + " ranks)" : ")"),
                    n + 1);
  for (int k = 0; k <= n; ++k) {
    if (k > 0 && l.part_bits > 0) {
      std::vector<comm::Transfer> sends, receives;
      for (std::size_t e = 0; e < l.sent.size(); ++e) {  // layer k - 1 of each part that others read
        const int s = k - 1 - top_count(l.sent[e]);
        const std::uint64_t count = layer_size(s), base = static_cast<std::uint64_t>(l.index_of(l.sent[e])) << m,
                            at = e * largest;
        Kokkos::parallel_for(
            "Kollective::Kemeny::pack_layer", Range(space, 0, static_cast<std::int64_t>(count)),
            KOKKOS_LAMBDA(const std::int64_t i) {
              const std::uint64_t low_part = subsets::unrank_colex(static_cast<std::uint64_t>(i), s, m, binomial_table);
              send_best(at + i) = best(base + low_part);
              send_ways(at + i) = ways(base + low_part);
            });
        for (const int reader : l.readers(l.sent[e])) {
          sends.push_back({send_best.data() + at, count * sizeof(Distance), reader});
          sends.push_back({send_ways.data() + at, count * sizeof(std::uint64_t), reader});
        }
      }
      for (std::size_t e = 0; e < l.received.size(); ++e) {
        const std::uint64_t count = layer_size(k - 1 - top_count(l.received[e])), at = e * largest;
        const int from = l.owner(l.received[e]);
        receives.push_back({got_best.data() + at, count * sizeof(Distance), from});
        receives.push_back({got_ways.data() + at, count * sizeof(std::uint64_t), from});
      }
      space.fence();
      WallTimer timer;
      comm::exchange_parts(space, sends, receives);
      space.fence();
      exchange_seconds += timer.seconds();
    }
    for (std::size_t q = 0; q < l.parts.size(); ++q) {
      const int v = l.parts[q], s = k - top_count(v);  // s: size of the low parts of v's sets in layer k
      const std::uint64_t base = static_cast<std::uint64_t>(q) << m, high = static_cast<std::uint64_t>(v) << m;
      TopSlots slot{};  // bit j of v -> where part v without j arrives
      for (int j = 0; j < l.part_bits; ++j) {
        if (v >> j & 1) {
          slot[j] = static_cast<int>(std::find(l.received.begin(), l.received.end(), v ^ 1 << j) - l.received.begin());
        }
      }
      const int part_bits = l.part_bits;
      Kokkos::parallel_for(
          "Kollective::Kemeny::dp_layer", Range(space, 0, static_cast<std::int64_t>(layer_size(s))),
          KOKKOS_LAMBDA(const std::int64_t i) {
            const std::uint64_t low_part = subsets::unrank_colex(static_cast<std::uint64_t>(i), s, m, binomial_table);
            const std::uint64_t set = low_part | high;
            Distance minimum = k == 0 ? 0 : ~Distance{0};
            std::uint64_t count = k == 0 ? 1 : 0;
            // As the one-rank DP: a candidate's count is read only when it ties or beats the
            // minimum (reading it for every candidate made the layer 1.5x slower on an H200).
            for (std::uint64_t rest = low_part; rest != 0; rest &= rest - 1) {
              const int c = Kokkos::Experimental::countr_zero_builtin(rest);
              const std::uint64_t without = base + (low_part ^ (std::uint64_t{1} << c));
              const Distance value = best(without) + tables.cost(c, set);
              if (value < minimum) {
                minimum = value;
                count = ways(without);
              } else if (value == minimum) {
                count = subsets::saturating_add(count, ways(without));
              }
            }
            for (int j = 0; j < part_bits; ++j) {
              if (!(v >> j & 1)) continue;
              const std::uint64_t at = static_cast<std::uint64_t>(slot[j]) * largest + static_cast<std::uint64_t>(i);
              const Distance value = got_best(at) + tables.cost(m + j, set);
              if (value < minimum) {
                minimum = value;
                count = got_ways(at);
              } else if (value == minimum) {
                count = subsets::saturating_add(count, got_ways(at));
              }
            }
            best(base + low_part) = minimum;
            ways(base + low_part) = count;
          });
    }
    space.fence();
    progress.update(k + 1);
  }
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
    Kokkos::View<std::uint64_t*, Memory> parts("Kollective::Kemeny::read_parts", owned.size());
    Kokkos::deep_copy(
        space, parts,
        Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(owned.data(), owned.size()));
    Kokkos::View<std::int64_t*, Memory> read("Kollective::Kemeny::read_values", 2 * owned.size());
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
  if (l.shared) comm::allreduce_sum(values);  // one owner per set: the others add zeros
  return values;
}

/// cost(c, set) from the host's counts, as the device tables hold it.
template <class Distance>
Distance host_cost(const Counts& o, int c, std::uint64_t set) {
  Distance sum = 0;
  for (std::uint64_t rest = set; rest != 0; rest &= rest - 1) sum += o.at(c, Kokkos::countr_zero(rest));
  return sum;
}

/// Lists up to `limit` optimal rankings, as list_optima does, reading the shared tables: every
/// rank walks the same recursion.
template <class Distance, class ExecSpace>
void list_optima(const ExecSpace& space, const SubsetTables<Distance, typename ExecSpace::memory_space>& t,
                 const Layout& l, const Counts& o, std::uint64_t set, Ranking& suffix, std::vector<Ranking>& out,
                 int limit) {
  if (static_cast<int>(out.size()) >= limit) return;
  if (set == 0) {
    out.emplace_back(suffix.rbegin(), suffix.rend());
    return;
  }
  std::vector<std::uint64_t> sets = {set};
  for (std::uint64_t rest = set; rest != 0; rest &= rest - 1) sets.push_back(set ^ (rest & (~rest + 1)));
  const std::vector<std::int64_t> values = read_sets(space, t, l, sets);
  const auto best = [&](std::size_t i) { return static_cast<Distance>(values[2 * i]); };
  std::size_t i = 1;
  for (std::uint64_t rest = set; rest != 0; rest &= rest - 1, ++i) {
    const int c = Kokkos::countr_zero(rest);
    if (static_cast<Distance>(best(i) + host_cost<Distance>(o, c, set)) != best(0)) continue;
    suffix.push_back(c);
    list_optima(space, t, l, o, sets[i], suffix, out, limit);
    suffix.pop_back();
    if (static_cast<int>(out.size()) >= limit) return;
  }
}

/// The subset DP on this rank alone, or shared by every rank (options.across_ranks: each holds
/// a share of the tables, and every rank gets the same Result).
template <class Distance, class ExecSpace>
Result solve_dp_with(const ExecSpace& space, const Counts& o, const Options& options) {
  const int n = o.alternatives;
  const Layout l = options.across_ranks ? layout(n, comm::size(), comm::rank()) : alone(n);
  if (l.shared) {
    comm::on_every_rank([&] {  // no rank allocates unless every rank's share fits
      if (l.rank >= 0) require_rank_memory(l, sizeof(Distance), "");
      return 0;
    });
    comm::prepare_device_collectives();
    if ((1 << l.rank_bits) < comm::size() && comm::rank() == 0) {
      std::cerr << "Kemeny subset DP over " << n << " alternatives: " << (1 << l.rank_bits) << " of " << comm::size()
                << " ranks take part (a power of two, at most 2^(n-2)); the others wait\n";
    }
  } else {
    require_device_memory(dp_bytes(n, sizeof(Distance)),
                          "the Kemeny subset DP over " + std::to_string(n) + " alternatives");
  }
  Result result;
  SubsetTables<Distance, typename ExecSpace::memory_space> t;
  t.n = n;
  if (l.rank >= 0) t = run_dp<Distance>(space, o, l, result.exchange_seconds);
  const std::uint64_t full = (std::uint64_t{1} << n) - 1;
  const std::vector<std::int64_t> root = read_sets(space, t, l, {full});
  result.distance = static_cast<std::uint64_t>(root[0]);
  result.count = static_cast<std::uint64_t>(root[1]);
  result.count_saturated = result.count == ~std::uint64_t{0};
  result.exact = true;
  result.count_known = true;
  result.lower_bound = result.distance;
  Ranking suffix;
  list_optima(space, t, l, o, full, suffix, result.optima, std::max(1, options.list_limit));
  result.component_sizes = {n};
  result.method = "dp";
  result.ranks = 1 << l.rank_bits;
  return result;
}

}  // namespace kollective::kemeny::Impl

#endif
