#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_DISTRIBUTED_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_DISTRIBUTED_IMPL_HPP

/// \file KemenyDistributed_Impl.hpp
/// The Kemeny subset DP over 2^d ranks (a hypercube), each holding 1 / 2^d of the tables. The
/// top d alternatives pick the rank: rank r owns the sets S whose top d bits are r, stored by
/// their low part L (the other m = n - d alternatives), 2^m entries. Taking a low alternative out
/// of S stays on the rank; taking out top alternative m + j leads to rank r with bit j cleared,
/// at the same L. So for layer k (|S| = k), rank r needs layer k - 1 of each such neighbour,
/// whose sets there have low parts of the same size k - |r|: the neighbour sends that layer
/// packed in colex order of L, and S finds its entry at its own colex rank. Each set is computed
/// as the one-rank DP computes it (minimum and saturating count over the same candidates), so
/// the tables are identical bit for bit. Of P ranks, the largest power of two <= P (with d < n)
/// take part; the others only join the collectives that read the result.
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

/// How the ranks share the DP of n alternatives.
struct Hypercube {
  static constexpr int max_dimensions = 16;
  int dimensions = 0;  ///< d: 2^d ranks take part
  int rank = 0;        ///< this rank's top bits, when it takes part
  bool takes_part = true;
  int top_count() const { return Kokkos::popcount(static_cast<unsigned>(rank)); }
};

inline Hypercube hypercube(int n, int ranks, int rank) {
  Hypercube cube;
  while ((2 << cube.dimensions) <= ranks && cube.dimensions + 1 < n && cube.dimensions < Hypercube::max_dimensions)
    ++cube.dimensions;
  cube.takes_part = rank < (1 << cube.dimensions);
  cube.rank = cube.takes_part ? rank : 0;
  return cube;
}

inline double binomial(int a, int b) {
  double value = 1;
  for (int k = 1; k <= b; ++k) value = value * (a - b + k) / k;
  return value;
}

/// Bytes rank `rank` of 2^d needs for the DP of n alternatives: its share of best and ways, the
/// cost tables, and the largest layer once per neighbour it sends to (it packs one layer for
/// all of them) or receives from. rank < 0: the most any rank needs (d layers).
inline std::int64_t dp_rank_bytes(int n, int dimensions, int distance_bytes, int rank = -1) {
  const int m = n - dimensions;
  const int all = (1 << dimensions) - 1;
  const int layers = rank < 0 ? dimensions : (rank != all ? 1 : 0) + Kokkos::popcount(static_cast<unsigned>(rank));
  const double entry = distance_bytes + 8;
  const double tables = static_cast<double>(n) * (std::ldexp(1.0, n / 2) + std::ldexp(1.0, n - n / 2));
  return static_cast<std::int64_t>(std::ldexp(entry, m) + tables * distance_bytes +
                                   (dimensions > 0 ? layers * binomial(m, m / 2) * entry : 0.0));
}

/// Fails before allocating unless this rank's share fits, naming the bytes and the ranks that
/// would fit; `of` names the input.
inline void require_rank_memory(int n, const Hypercube& cube, int distance_bytes, const std::string& of) {
  const std::int64_t needed = dp_rank_bytes(n, cube.dimensions, distance_bytes, cube.rank);
  const std::string what = "this rank's share of the Kemeny subset DP over " + std::to_string(n) + " alternatives" +
                           of + " on " + std::to_string(1 << cube.dimensions) + " ranks";
  const std::int64_t available = available_device_bytes();
  if (needed > available) {
    int enough = cube.dimensions + 1;
    while (enough < n - 1 && dp_rank_bytes(n, enough, distance_bytes) > available) ++enough;
    fail(what, " needs ", format_bytes(static_cast<double>(needed)), " of device memory but only ",
         format_bytes(static_cast<double>(available)), " is available; with ", std::int64_t{1} << enough,
         " ranks (one GPU each) a share would take ",
         format_bytes(static_cast<double>(dp_rank_bytes(n, enough, distance_bytes))));
  }
  require_device_memory(needed, what);
}

/// This rank's share of the tables (best and ways by low part), and the seconds spent exchanging layers.
template <class Distance, class ExecSpace>
SubsetTables<Distance, typename ExecSpace::memory_space> run_shared_dp(const ExecSpace& space, const Counts& o,
                                                                       const Hypercube& cube,
                                                                       double& exchange_seconds) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const int n = o.alternatives, d = cube.dimensions, m = n - d, top = cube.top_count(), r = cube.rank;
  SubsetTables<Distance, Memory> t = cost_tables<Distance>(space, o);
  t.best = decltype(t.best)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::best"),
                            std::size_t{1} << m);
  t.ways = decltype(t.ways)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::ways"),
                            std::size_t{1} << m);
  std::vector<int> lower, upper;                         // neighbours without / with one more top alternative
  Kokkos::Array<int, Hypercube::max_dimensions> slot{};  // bit j of r -> its neighbour's part
  for (int j = 0; j < d; ++j) {
    if (r >> j & 1) {
      slot[j] = static_cast<int>(lower.size());
      lower.push_back(r ^ (1 << j));
    } else {
      upper.push_back(r | (1 << j));
    }
  }
  const auto largest = static_cast<std::size_t>(binomial(m, m / 2) + 0.5);
  Kokkos::View<Distance*, Memory> send_best("Kollective::Kemeny::send_best", upper.empty() ? 0 : largest),
      got_best("Kollective::Kemeny::got_best", lower.size() * largest);
  Kokkos::View<std::uint64_t*, Memory> send_ways("Kollective::Kemeny::send_ways", upper.empty() ? 0 : largest),
      got_ways("Kollective::Kemeny::got_ways", lower.size() * largest);
  const auto binomial_device = subsets::binomial_table<Memory>(space, n);
  const auto sizes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), binomial_device);
  auto layer_size = [&](int s) -> std::uint64_t { return s < 0 || s > m ? 0 : sizes(m, s); };

  const auto tables = t;
  const auto best = t.best;
  const auto ways = t.ways;
  const auto binomial_table = binomial_device;
  Progress progress("Kemeny subset DP (n=" + std::to_string(n) + ", " + std::to_string(1 << d) + " ranks)", n + 1);
  for (int k = 0; k <= n; ++k) {
    const int s = k - top;  // size of the low part of this rank's sets in layer k
    const std::uint64_t sent = layer_size(s - 1), got = layer_size(s);
    if (k > 0 && d > 0) {
      Kokkos::parallel_for(
          "Kollective::Kemeny::pack_layer", Range(space, 0, upper.empty() ? 0 : static_cast<std::int64_t>(sent)),
          KOKKOS_LAMBDA(const std::int64_t i) {
            const std::uint64_t low_part =
                subsets::unrank_colex(static_cast<std::uint64_t>(i), s - 1, m, binomial_table);
            send_best(i) = best(low_part);
            send_ways(i) = ways(low_part);
          });
      const std::vector<int> to = sent ? upper : std::vector<int>(), from = got ? lower : std::vector<int>();
      space.fence();
      WallTimer timer;
      comm::exchange_parts(space, send_best.data(), sent, to, got_best.data(), got, from);
      comm::exchange_parts(space, send_ways.data(), sent, to, got_ways.data(), got, from);
      space.fence();
      exchange_seconds += timer.seconds();
    }
    Kokkos::parallel_for(
        "Kollective::Kemeny::shared_dp_layer", Range(space, 0, static_cast<std::int64_t>(got)),
        KOKKOS_LAMBDA(const std::int64_t i) {
          const std::uint64_t low_part = subsets::unrank_colex(static_cast<std::uint64_t>(i), s, m, binomial_table);
          const std::uint64_t set = low_part | static_cast<std::uint64_t>(r) << m;
          Distance minimum = k == 0 ? 0 : ~Distance{0};
          std::uint64_t count = k == 0 ? 1 : 0;
          // As the one-rank DP: a candidate's count is read only when it ties or beats the
          // minimum (reading it for every candidate made the layer 1.5x slower on an H200).
          for (std::uint64_t rest = low_part; rest != 0; rest &= rest - 1) {
            const int c = Kokkos::Experimental::countr_zero_builtin(rest);
            const std::uint64_t without = low_part ^ (std::uint64_t{1} << c);
            const Distance value = best(without) + tables.cost(c, set);
            if (value < minimum) {
              minimum = value;
              count = ways(without);
            } else if (value == minimum) {
              count = subsets::saturating_add(count, ways(without));
            }
          }
          for (int j = 0; j < d; ++j) {
            if (!(r >> j & 1)) continue;
            const std::uint64_t at = static_cast<std::uint64_t>(slot[j]) * got + static_cast<std::uint64_t>(i);
            const Distance value = got_best(at) + tables.cost(m + j, set);
            if (value < minimum) {
              minimum = value;
              count = got_ways(at);
            } else if (value == minimum) {
              count = subsets::saturating_add(count, got_ways(at));
            }
          }
          best(low_part) = minimum;
          ways(low_part) = count;
        });
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
std::vector<std::int64_t> read_shared(const ExecSpace& space,
                                      const SubsetTables<Distance, typename ExecSpace::memory_space>& t,
                                      const Hypercube& cube, const std::vector<std::uint64_t>& sets) {
  using Memory = typename ExecSpace::memory_space;
  const int m = t.n - cube.dimensions;
  std::vector<std::int64_t> values(2 * sets.size(), 0);
  std::vector<std::uint64_t> owned;  // low parts of the sets this rank holds
  std::vector<std::size_t> slot;     // their places in `sets`
  for (std::size_t i = 0; i < sets.size() && cube.takes_part; ++i) {
    if (static_cast<int>(sets[i] >> m) != cube.rank) continue;
    owned.push_back(sets[i] & ((std::uint64_t{1} << m) - 1));
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
        "Kollective::Kemeny::read_shared", Kokkos::RangePolicy<ExecSpace>(space, 0, static_cast<int>(owned.size())),
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
  comm::allreduce_sum(values);  // one owner per set: the others add zeros
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
void list_shared_optima(const ExecSpace& space, const SubsetTables<Distance, typename ExecSpace::memory_space>& t,
                        const Hypercube& cube, const Counts& o, std::uint64_t set, Ranking& suffix,
                        std::vector<Ranking>& out, int limit) {
  if (static_cast<int>(out.size()) >= limit) return;
  if (set == 0) {
    out.emplace_back(suffix.rbegin(), suffix.rend());
    return;
  }
  std::vector<std::uint64_t> sets = {set};
  for (std::uint64_t rest = set; rest != 0; rest &= rest - 1) sets.push_back(set ^ (rest & (~rest + 1)));
  const std::vector<std::int64_t> values = read_shared(space, t, cube, sets);
  const auto best = [&](std::size_t i) { return static_cast<Distance>(values[2 * i]); };
  std::size_t i = 1;
  for (std::uint64_t rest = set; rest != 0; rest &= rest - 1, ++i) {
    const int c = Kokkos::countr_zero(rest);
    if (static_cast<Distance>(best(i) + host_cost<Distance>(o, c, set)) != best(0)) continue;
    suffix.push_back(c);
    list_shared_optima(space, t, cube, o, sets[i], suffix, out, limit);
    suffix.pop_back();
    if (static_cast<int>(out.size()) >= limit) return;
  }
}

/// The subset DP with every rank's share; the same Result on every rank.
template <class Distance, class ExecSpace>
Result solve_shared_dp_with(const ExecSpace& space, const Counts& o, const Options& options) {
  const int n = o.alternatives;
  const Hypercube cube = hypercube(n, comm::size(), comm::rank());
  comm::on_every_rank([&] {  // no rank allocates unless every rank's share fits
    if (cube.takes_part) require_rank_memory(n, cube, sizeof(Distance), "");
    return 0;
  });
  comm::prepare_device_collectives();
  if ((1 << cube.dimensions) < comm::size() && comm::rank() == 0) {
    std::cerr << "Kemeny subset DP over " << n << " alternatives: " << (1 << cube.dimensions) << " of " << comm::size()
              << " ranks take part (a power of two, below 2^n); the others wait\n";
  }
  Result result;
  SubsetTables<Distance, typename ExecSpace::memory_space> t;
  t.n = n;
  if (cube.takes_part) t = run_shared_dp<Distance>(space, o, cube, result.exchange_seconds);
  const std::uint64_t full = (std::uint64_t{1} << n) - 1;
  const std::vector<std::int64_t> root = read_shared(space, t, cube, {full});
  result.distance = static_cast<std::uint64_t>(root[0]);
  result.count = static_cast<std::uint64_t>(root[1]);
  result.count_saturated = result.count == ~std::uint64_t{0};
  result.exact = true;
  result.count_known = true;
  result.lower_bound = result.distance;
  Ranking suffix;
  list_shared_optima(space, t, cube, o, full, suffix, result.optima, std::max(1, options.list_limit));
  result.component_sizes = {n};
  result.method = "dp";
  result.ranks = 1 << cube.dimensions;
  return result;
}

}  // namespace kollective::kemeny::Impl

#endif
