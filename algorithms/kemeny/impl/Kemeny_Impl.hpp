#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_IMPL_HPP

/// \file Kemeny_Impl.hpp
/// Exact Kemeny: the subset DP's entry (KemenySubsetDP_Impl.hpp), the enumeration, and the
/// decomposition strategy. Do not include directly: include algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyCertificate.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyChains_Impl.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyReductions.hpp"
#include "kollective/algorithms/kemeny/impl/KemenySearch.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyTriangles_Impl.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyEnumeration_Impl.hpp"
#include "kollective/algorithms/kemeny/impl/KemenySubsetDP_Impl.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/subsets/Subsets.hpp"

namespace kollective::kemeny::Impl {

template <class ExecSpace>
Result solve_dp(const ExecSpace& space, const Counts& o, const Options& options,
                Workspace<typename ExecSpace::memory_space>& workspace) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Kemeny::subset_dp");
  const int n = o.alternatives;
  if (n < 1) fail("Kemeny: no alternatives");
  if (n > dp_max_alternatives) {
    fail("Kemeny subset DP: ", n, " alternatives exceed its limit of ", dp_max_alternatives,
         " (2^n table entries); use method auto or heuristic");
  }
  return distances_fit_32(o) ? solve_dp_with<std::uint32_t>(space, o, options, workspace)
                             : solve_dp_with<std::uint64_t>(space, o, options, workspace);
}

template <class ExecSpace>
Result solve_enumeration(const ExecSpace& space, const Counts& o, const Options& options) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Kemeny::enumeration");
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const int n = o.alternatives;
  if (n < 1) fail("Kemeny: no alternatives");
  if (n > enumeration_max_alternatives) {
    fail("Kemeny enumeration over n! rankings is limited to ", enumeration_max_alternatives, " alternatives (",
         enumeration_max_alternatives, "! = 2.1e13 rankings); ", n, " given: use method dp or auto");
  }
  EnumerationData<Memory> data;
  data.n = n;
  data.suffix = n <= 5 ? n : std::min(n - 5, 11);
  std::uint64_t items = 1;
  for (int k = data.suffix + 1; k <= n; ++k) items *= k;
  const int limit = std::max(1, options.list_limit);
  require_memory(memory_kind<Memory>(),
                 static_cast<std::int64_t>(n) * (8 << n) + 16 * static_cast<std::int64_t>(items) +
                     4 * static_cast<std::int64_t>(limit) * n,
                 "the Kemeny enumeration over " + std::to_string(n) + " alternatives");

  data.o = preferences::to_device(space, o);
  data.add = decltype(data.add)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::add"), n,
                                std::size_t{1} << n);
  const auto d = data;
  Kokkos::parallel_for(
      "Kollective::Kemeny::add_table", Range(space, 0, static_cast<std::int64_t>(n) << n),
      KOKKOS_LAMBDA(const std::int64_t item) {
        const int y = static_cast<int>(item >> d.n);
        const std::uint32_t set = static_cast<std::uint32_t>(item & ((std::int64_t{1} << d.n) - 1));
        std::uint64_t sum = 0;
        for (std::uint32_t rest = set; rest != 0; rest &= rest - 1)
          sum += d.o(Kokkos::Experimental::countr_zero_builtin(rest), y);
        d.add(y, set) = sum;
      });

  Kokkos::View<std::uint64_t*, Memory> item_best(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::item_best"), items);
  Kokkos::View<std::uint64_t*, Memory> item_count(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::item_count"), items);
  Progress progress(options.reporter, "Kemeny enumeration (n=" + std::to_string(n) + ")",
                    static_cast<std::int64_t>(items));
  const std::uint64_t batch = std::max<std::uint64_t>(items / 64, 1);
  for (std::uint64_t begin = 0; begin < items; begin += batch) {
    const std::uint64_t end = std::min(items, begin + batch);
    Kokkos::parallel_for(
        "Kollective::Kemeny::enumerate", Range(space, static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end)),
        KOKKOS_LAMBDA(const std::int64_t w) {
          int ranking[enumeration_max_alternatives];
          std::uint32_t unplaced = 0;
          const std::uint64_t cost = d.prefix(static_cast<std::uint64_t>(w), ranking, unplaced);
          std::uint64_t best = ~std::uint64_t{0}, count = 0;
          d.enumerate(ranking, unplaced, cost, [&](std::uint64_t value, const int*) {
            if (value < best) {
              best = value;
              count = 1;
            } else if (value == best) {
              ++count;
            }
          });
          item_best(w) = best;
          item_count(w) = count;
        });
    space.fence();
    progress.update(static_cast<std::int64_t>(end));
  }
  progress.finish();

  Result result;
  Kokkos::parallel_reduce(
      "Kollective::Kemeny::best", Range(space, 0, static_cast<std::int64_t>(items)),
      KOKKOS_LAMBDA(const std::int64_t w, std::uint64_t& best) {
        if (item_best(w) < best) best = item_best(w);
      },
      Kokkos::Min<std::uint64_t>(result.distance));
  const std::uint64_t optimum = result.distance;
  Kokkos::parallel_reduce(
      "Kollective::Kemeny::count", Range(space, 0, static_cast<std::int64_t>(items)),
      KOKKOS_LAMBDA(const std::int64_t w, std::uint64_t& sum) { sum += item_best(w) == optimum ? item_count(w) : 0; },
      result.count);

  Kokkos::View<int**, Kokkos::LayoutRight, Memory> listed(Kokkos::view_alloc(space, "Kollective::Kemeny::listed"),
                                                          limit, n);
  Kokkos::View<std::uint64_t, Memory> found(Kokkos::view_alloc(space, "Kollective::Kemeny::found"));
  Kokkos::parallel_for(
      "Kollective::Kemeny::list", Range(space, 0, static_cast<std::int64_t>(items)),
      KOKKOS_LAMBDA(const std::int64_t w) {
        if (item_best(w) != optimum) return;
        int ranking[enumeration_max_alternatives];
        std::uint32_t unplaced = 0;
        const std::uint64_t cost = d.prefix(static_cast<std::uint64_t>(w), ranking, unplaced);
        d.enumerate(ranking, unplaced, cost, [&](std::uint64_t value, const int* order) {
          if (value != optimum) return;
          const std::uint64_t slot = Kokkos::atomic_fetch_add(&found(), std::uint64_t{1});
          if (slot < static_cast<std::uint64_t>(limit)) {
            for (int p = 0; p < d.n; ++p) listed(slot, p) = order[p];
          }
        });
      });
  auto listed_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), listed);
  const std::uint64_t shown = std::min<std::uint64_t>(result.count, static_cast<std::uint64_t>(limit));
  for (std::uint64_t r = 0; r < shown; ++r) {
    Ranking ranking(n);
    for (int p = 0; p < n; ++p) ranking[p] = listed_host(r, p);
    result.optima.push_back(std::move(ranking));
  }
  std::sort(result.optima.begin(), result.optima.end());  // listing order depends on scheduling
  result.exact = true;
  result.count_known = true;
  result.lower_bound = result.distance;
  result.component_sizes = {n};
  result.method = "enumeration";
  return result;
}

/// Whether the DP for this component fits in the memory available now, with the `held` bytes of
/// a workspace, which the DP reuses or frees (on every rank's share when the ranks share it, and
/// then on every rank, so that all choose alike).
inline bool dp_fits(MemoryKind memory, const Counts& o, const Options& options, std::int64_t held) {
  const int n = o.alternatives, bytes = distances_fit_32(o) ? 4 : 8;
  const comm::Communicator& ranks = options.communicator;
  const std::int64_t needed = ranks.size() > 1 ? dp_most_rank_bytes(n, ranks.size(), bytes) : dp_bytes(n, bytes);
  const bool fits = n <= dp_max_alternatives && needed <= (available_bytes(memory) + held) * 9 / 10;
  return ranks.holds_on_every_rank(fits);
}

/// The most alternatives whose triangle search runs on the calling thread: there the n^3 / 6
/// checks (about 10^4 at n = 40) take less than a round on an execution space, with its
/// allocation, copies and launch. Device rounds make the CUDA build slower than the OpenMP one on
/// small components.
constexpr int host_triangle_limit = 40;

/// The triangles (and, with options.ladders and options.fences, the ladders and fences) violated at
/// an LP point; `root_triangles` triangles per pair in the first solve (branch and cut's root takes
/// options.root_triangles; the LP bound alone, one solve over up to lp_bound_max_alternatives, one).
template <class ExecSpace>
Separation separation(const ExecSpace& space, const Options& options, int root_triangles) {
  const auto triangles = [space](const std::vector<double>& x, int n, int per_pair, const std::vector<int>& guide) {
    // The same triangles either way.
    if (n <= host_triangle_limit) return violated_triangles_on_host(x, n, per_pair, guide);
    return violated_triangles(space, x, n, per_pair, guide);
  };
  return Separation{triangles, options.ladders, options.fences, root_triangles};
}

/// Adds an LP's figures (an LpBound's or a SearchResult's) to the result's totals.
template <class Figures>
void add_lp_figures(Result& totals, const Figures& lp) {
  totals.lp_s += lp.seconds;
  totals.lp_rounds += lp.rounds;
  totals.lp_cuts += lp.cuts;
  totals.lp_ladders += lp.ladders;
  totals.lp_fences += lp.fences;
}

/// The bound of a component too large for branch and cut: the LP's in `seconds` (up to
/// lp_bound_max_alternatives, with CLP; its figures with it), or the pairwise bound.
template <class ExecSpace>
LpBound anytime_bound(const ExecSpace& space, const Counts& o, const Options& options, double seconds) {
  LpBound lp;
  if (lp_available() && o.alternatives <= lp_bound_max_alternatives)
    lp = lp_bound(o, separation(space, options, 1), 200, seconds);
  lp.bound = std::max(lp.bound, lower_bound(o));
  return lp;
}

/// The memetic search's population (memetic_search): 20 after branch and cut above; at 500 and
/// 1000 alternatives after the LP (28 s on the 2-core CPU), 10 and 20 ended within 0.2 points of
/// the iterated local search, either way, which stays the search there on the host.
constexpr int memetic_population = 20;

/// The fewest host threads with which, on a device, the memetic search runs on the host beside
/// the chains: with one (a Serial host space) it made 11 generations in 57 s at 500 alternatives,
/// lost to the chains and slowed them (record perf/results/kemeny/gpu_anytime/).
constexpr int memetic_beside_threads = 4;

/// At most this many alternatives (above branch and cut's), on a device with a time limit, the
/// memetic search runs with its children descended there (DeviceDescents), a population of
/// device_memetic_population and device_memetic_children children a generation, instead of the
/// chains with the host's memetic search beside them (measured up to 1000 alternatives). On an
/// H200 at 60 s, below the best known values (one run each unless a range): be75np_500
/// 0.105-0.223% (five runs) against 0.261% and 0.297% with the chains, t59b11xx_500 0.157-0.170%
/// against 0.253%, RandA1 0.017-0.036% against 0.064-0.069%, t75e11xx_750 0.280% against 0.410%
/// (the chains alone), t70l11xx_1000 0.321% and 0.376% against 0.473% and 0.489%, t65l11xx_1000
/// 0.325% against 0.824% (the chains alone); with a warp a child (not a team of descent_threads)
/// t70l11xx_1000 ended 0.566% below. With the team's scan by blocks, t70l11xx_1000 0.234% and
/// 0.243%, t65l11xx_1000 0.391%; with 4096 children a generation of descent_threads (64) each,
/// not 1024 of 256, t70l11xx_1000 0.196% and 0.286%, be75np_500 0.088%, t59b11xx_500 0.110%,
/// t75e11xx_750 0.197%, t65l11xx_1000 0.296%, RandA1 0.019-0.045% (0.026-0.062% the old shape in
/// the same calls); populations of 128 and 256 ended further below (record
/// perf/results/kemeny/gpu_anytime/).
constexpr int device_memetic_alternatives = 1000;
constexpr int device_memetic_population = 64;
constexpr int device_memetic_children = 4096;

template <class ExecSpace>
Ranking device_memetic_search(const ExecSpace& space, const Counts& o, const Ranking& start, const SearchLimits& limits,
                              std::uint64_t seed) {
  DeviceDescents<ExecSpace> descents(space, o, device_memetic_children);
  return memetic_search(
      o, start, limits, seed, device_memetic_population, device_memetic_children,
      [&](std::vector<Ranking>& rankings, std::vector<std::uint64_t>& distances) { descents(rankings, distances); });
}

/// Work on a host thread of its own beside the calling thread's. What it throws is kept for
/// join(); destroyed before join() (the calling thread's work threw), it abandons the work, whose
/// next interruption point throws, and waits for it.
class BesideThread {
 public:
  template <class Work>
  explicit BesideThread(Work work)
      : thread_([this, work = std::move(work)] {
          try {
            const InterruptCheck on_abandon([this] {
              if (abandoned_) fail("Kemeny: abandoned beside a failed search");
            });
            work();
          } catch (...) {
            failed_ = std::current_exception();
          }
        }) {}
  BesideThread(const BesideThread&) = delete;
  BesideThread& operator=(const BesideThread&) = delete;
  ~BesideThread() {
    if (!thread_.joinable()) return;
    abandoned_ = true;
    thread_.join();
  }
  void join() {
    thread_.join();
    if (failed_) std::rethrow_exception(failed_);
  }

 private:
  std::atomic<bool> abandoned_{false};
  std::exception_ptr failed_;
  std::thread thread_;  // last: it starts once the members it uses are made
};

/// A component too large for branch and cut, or any without CLP: the LP bound and the iterated
/// local search from `start`, then the greedy dual's bound at the best ranking found (in a
/// twentieth of the seconds), the larger bound kept. On the host, the LP in half the seconds, then
/// the search for the rest, stopping early at the LP's bound. On a device with a time limit up to
/// device_memetic_alternatives, the memetic search with its children descended there; otherwise
/// the search's chains there for all the seconds, and with a time limit where the host has memetic_beside_threads, the
/// memetic search on them for as long from the same start, the better ranking kept; the LP beside them on a host
/// thread of its own (its triangle searches on an instance of the space of their own) for three
/// quarters of the seconds: its last round may run past its limit (at n = 1000 given 60 s, by 7
/// s). On RandA1 at 60 s on an H200, 30 s of search after the LP ended 0.093% and 0.136% below the
/// best known values, 60 s beside it 0.082% and 0.126%, and with 48 kicks a round (round_kicks)
/// 0.031% below and above (record perf/results/kemeny/gpu_anytime/).
template <class ExecSpace>
SearchResult anytime_component(const ExecSpace& space, const Counts& o, const Options& options, double seconds,
                               const Ranking& start, Result& totals) {
  const WallTimer timer;
  const double greedy_seconds = seconds / 20;
  seconds -= greedy_seconds;
  SearchResult searched;
  SearchLimits limits;
  if (options.time_limit <= 0) limits.stale_rounds = 20 * std::int64_t{o.alternatives};  // no limit: until stuck
  LpBound lp;
  if constexpr (runs_on_host<ExecSpace>) {
    lp = anytime_bound(space, o, options, seconds / 2);
    limits.floor = lp.bound;
    limits.seconds = std::max(0.0, seconds - timer.seconds());
    searched.optima = {iterated_local_search(o, start, limits, options.seed)};
  } else {
    limits.floor = lower_bound(o);
    limits.seconds = seconds;
    BesideThread lp_side([&, lp_space = Kokkos::Experimental::partition_space(space, 1)[0]] {
      lp = anytime_bound(lp_space, o, options, seconds * 3 / 4);
    });
    Ranking chained;
    if (options.time_limit > 0 && o.alternatives <= device_memetic_alternatives) {
      chained = device_memetic_search(space, o, start, limits, options.seed);
    } else if (options.time_limit > 0 && Kokkos::DefaultHostExecutionSpace().concurrency() >= memetic_beside_threads) {
      BesideThread chain_side([&] { chained = iterated_local_search(space, o, start, limits, options.seed); });
      Ranking bred = memetic_search(o, start, limits, options.seed, memetic_population);
      chain_side.join();
      if (distance(o, bred) < distance(o, chained)) chained = std::move(bred);
    } else {
      chained = iterated_local_search(space, o, start, limits, options.seed);
    }
    lp_side.join();
    searched.optima = {std::move(chained)};
  }
  add_lp_figures(totals, lp);
  searched.distance = distance(o, searched.optima.front());
  GreedyBound greedy = greedy_dual_bound(o, searched.optima.front(), greedy_seconds);
  searched.bound = std::max(lp.bound, greedy.bound);
  searched.count = searched.bound >= searched.distance ? 1 : 0;  // the other optima were not searched
  // Proven beyond the pairwise bound: a proof of one node, bounded by the rows that reach it.
  if (searched.bound >= searched.distance && searched.distance > lower_bound(o)) {
    searched.proof.rows = {greedy.bound >= searched.distance ? std::move(greedy.rows) : std::move(lp.priced_rows)};
    ProofNode root;  // bounded by the rows kept first
    root.rows = 0;
    searched.proof.nodes.assign(1, root);
    searched.nodes = 1;
  }
  return searched;
}

/// Above this many alternatives branch and cut starts from the iterated local search's ranking:
/// on an input-output matrix of 300 (xLOLIB2's t59d11xx_300) that start was 1.9% better and 60 s
/// of branch and cut did not improve on the constructive one; on LOLIB's tables of 44-60 the
/// search's few milliseconds would add 10-45% to solves of 7-90 ms (record
/// perf/results/kemeny/cpu_anytime/). Above it the root's cuts are guided by the best ranking
/// (Separation::guide_root): SGB's 25 tables of 75 took 0.69x the time (0.67x from this start,
/// 0.70x from the constructive one); random tournaments of 36-40 took 0.67-1.81x, mostly more
/// (perf/results/kemeny/cpu_guided_triangles/). Starting the guided root from a greedy dual's
/// triangles took SGB's tables to 0.22x more (perf/results/kemeny/cpu_greedy_dual/).
constexpr int searched_start_alternatives = 64;

/// Above this many alternatives, with a time limit, branch and cut gets half of the time left
/// after its start and, where it does not prove the optimum in it, the memetic search spends the
/// rest from its ranking. On xLOLIB2's input-output matrices of 300 (the 2-core CPU, 60 s), branch
/// and cut given all the time ended in its root LP with its start unimproved, 0.39-0.79% below
/// the best known values; with half of it and the iterated local search after, 0.29-0.46%; with
/// the memetic search after, 0.15-0.26% (record perf/results/kemeny/cpu_anytime/). LOLIB's 105
/// (44-79 alternatives) are below it.
constexpr int split_time_alternatives = 150;

/// Where `better` is better than unproven branch and cut's ranking and above its bound, it
/// replaces that one (at the bound it would be an optimum, whose proof the unproven branch and
/// cut did not keep).
inline void keep_better_unproven(const Counts& o, Ranking better, SearchResult& searched) {
  const std::uint64_t better_distance = distance(o, better);
  if (searched.proven() || better_distance >= searched.distance || better_distance <= searched.bound) return;
  searched.optima = {std::move(better)};
  searched.distance = better_distance;
  searched.count = 1;
}

/// The memetic search for `seconds` from branch and cut's unproven ranking, the better kept.
inline void search_after_branch_and_cut(const Counts& o, const Options& options, double seconds,
                                        SearchResult& searched) {
  if (seconds <= 0) return;
  SearchLimits limits;
  limits.seconds = seconds;
  limits.floor = searched.bound + 1;
  keep_better_unproven(o, memetic_search(o, searched.optima.front(), limits, options.seed, memetic_population),
                       searched);
}

/// On a device whose host has memetic_beside_threads, with a time limit, above
/// split_time_alternatives: branch and cut on a host thread of its own (its triangle searches on
/// the device) for three quarters of `seconds` (its last round may run past them), the memetic
/// search on the host's threads beside it for all of them from the same start, ending once branch
/// and cut proves the optimum; the better ranking kept. On xLOLIB2's matrices of 300 at 60 s on
/// an H200: 0.081-0.160% below the best known values (one run each of be75np_300 and
/// tiw56r72_300, two of t59d11xx_300; branch and cut for half the time then the memetic search,
/// the same build: 0.108% and 0.151% on be75np_300 and tiw56r72_300, against 0.082% and 0.134%),
/// and bounds from 41 s of branch and cut instead of 28 (record
/// perf/results/kemeny/gpu_anytime/).
inline SearchResult branch_and_cut_beside_memetic(const Counts& o, const Options& options, double seconds,
                                                  const Separation& cuts, const Ranking& start,
                                                  std::vector<signed char> known, bool certify) {
  const WallTimer timer;
  SearchResult searched;
  std::atomic<bool> proven{false};
  BesideThread bounding([&] {
    searched = branch_and_cut(o, cuts, start, options.count ? options.list_limit : 0, seconds * 3 / 4, std::move(known),
                              certify);
    proven = searched.proven();
  });
  SearchLimits limits;
  limits.seconds = seconds;
  limits.floor = lower_bound(o);
  limits.stop = &proven;
  Ranking bred = memetic_search(o, start, limits, options.seed, memetic_population);
  bounding.join();
  keep_better_unproven(o, std::move(bred), searched);
  return searched;
}

/// A component given to the LP: branch and cut from the best heuristic ranking (above
/// searched_start_alternatives, improved by the iterated local search), with the data
/// reduction's pairs fixed (options.reduce), where the build has CLP; else (or above
/// lp_max_alternatives) anytime_component. The reduction's and the LP's figures are added to
/// `totals`; where `certified` is given, the fixed pairs and the search's proof go there.
template <class ExecSpace>
SearchResult search_component(const ExecSpace& space, const Counts& o, const Options& options, double seconds,
                              Result& totals, ComponentCertificate* certified) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Kemeny::branch_and_cut");
  const WallTimer timer;
  const double allowed = seconds;
  Ranking start = best_heuristic(o, options.seed);
  SearchResult searched;
  if (lp_available() && o.alternatives <= lp_max_alternatives) {
    if (o.alternatives > searched_start_alternatives) {
      SearchLimits limits;  // until 2n rounds find nothing better, a tenth of the time at most
      limits.stale_rounds = 2 * std::int64_t{o.alternatives};
      limits.seconds = seconds / 10;
      start = iterated_local_search(o, start, limits, options.seed);
      seconds = std::max(0.0, seconds - timer.seconds());
    }
    std::vector<signed char> known;  // none
    if (options.reduce) {
      const PairReduction reduction = fixed_pairs(o);
      totals.reduction_pairs += static_cast<std::int64_t>(o.alternatives) * (o.alternatives - 1) / 2;
      totals.fixed_by_exchange += reduction.by_exchange;
      totals.fixed_by_majority += reduction.by_majority;
      totals.fixed_by_grouping += reduction.by_grouping;
      totals.fixed_by_closure += reduction.by_closure;
      known = pair_columns(reduction);
      if (certified) certified->reduction = reduction;
    }
    Separation cuts = separation(space, options, options.root_triangles);
    cuts.guide_root = o.alternatives > searched_start_alternatives;
    const bool split = options.time_limit > 0 && o.alternatives > split_time_alternatives;
    const bool beside = split && !runs_on_host<ExecSpace> &&
                        Kokkos::DefaultHostExecutionSpace().concurrency() >= memetic_beside_threads;
    if (beside) {
      searched =
          branch_and_cut_beside_memetic(o, options, seconds, cuts, start, std::move(known), certified != nullptr);
    } else {
      searched = branch_and_cut(o, cuts, start, options.count ? options.list_limit : 0, split ? seconds / 2 : seconds,
                                std::move(known), certified != nullptr);
    }
    if (certified) certified->proof = std::move(searched.proof);
    add_lp_figures(totals, searched);
    totals.search_nodes += searched.nodes;
    if (split && !beside && !searched.proven())
      search_after_branch_and_cut(o, options, allowed - timer.seconds(), searched);
  } else {
    searched = anytime_component(space, o, options, std::max(0.0, seconds - timer.seconds()), start, totals);
    if (certified) certified->proof = std::move(searched.proof);
  }
  searched.bound = std::min(searched.distance, std::max(searched.bound, lower_bound(o)));
  return searched;
}

/// The certificate of an exact result of one method on the whole profile (options.certify).
inline void certify_whole(Result& result, const Counts& o, const Options& options) {
  if (!options.certify || !result.exact) return;
  ComponentCertificate whole;
  whole.alternatives.resize(o.alternatives);
  for (int a = 0; a < o.alternatives; ++a) whole.alternatives[a] = a;
  whole.method = result.method;
  whole.distance = result.distance;
  result.certificate = std::make_shared<Certificate>(Certificate{{std::move(whole)}});
}

template <class ExecSpace>
Result solve(const ExecSpace& space, const Counts& o, const Options& options,
             Workspace<typename ExecSpace::memory_space>& workspace) {
  Kokkos::Profiling::ScopedRegion region("Kollective::Kemeny::solve");
  if (options.method == Method::dp || options.method == Method::enumeration) {
    Result whole = options.method == Method::dp ? Impl::solve_dp(space, o, options, workspace)
                                                : Impl::solve_enumeration(space, o, options);
    whole.component_methods = {whole.method};
    certify_whole(whole, o, options);
    return whole;
  }
  Result result;
  result.lower_bound = lower_bound(o);
  if (options.method == Method::heuristic) {
    result.optima = {best_heuristic(o, options.seed)};
    result.distance = distance(o, result.optima[0]);
    // Meeting the lower bound proves this ranking optimal, but other optima are not searched.
    result.exact = result.distance == result.lower_bound;
    result.count_known = false;
    result.component_sizes = {o.alternatives};
    result.method = "heuristic";
    result.component_methods = {result.method};
    certify_whole(result, o, options);
    return result;
  }
  // auto: Condorcet components in order, each by the DP or the LP search.
  std::vector<std::vector<Ranking>> parts;
  result.exact = true;
  result.count = 1;
  bool counted = true;    // every component's optima were counted
  std::uint64_t gap = 0;  // the components' distances above their lower bounds
  std::string methods;
  auto certificate = std::make_shared<Certificate>();
  for (const auto& component : condorcet_components(o)) {
    ComponentCertificate certified;
    certified.alternatives = component;
    result.component_sizes.push_back(static_cast<int>(component.size()));
    const Counts sub = restrict_to(o, component);
    std::vector<Ranking> local;
    std::uint64_t local_count = 1;
    bool local_saturated = false;
    std::string how = "trivial";
    if (component.size() <= 2) {  // one alternative, or two tied ones: every order is optimal
      local = {{0}};
      if (component.size() == 2) local = {{0, 1}, {1, 0}};
      local_count = local.size();
    } else {
      // By cost: the DP up to the limit; above it, branch and cut on the LP, and the DP after all
      // where that did not finish in the DP's expected time (or time_limit when the DP does not fit).
      const int size = static_cast<int>(component.size());
      const bool dp_possible =
          size <= dp_max_alternatives && dp_fits(memory_kind<typename ExecSpace::memory_space>(), sub, options,
                                                 static_cast<std::int64_t>(workspace.bytes()));
      constexpr bool on_gpu = !runs_on_host<ExecSpace>;
      const double time_limit = seconds_allowed(options.time_limit);
      const double dp_seconds =
          dp_possible ? std::max(0.05, dp_estimated_seconds(size, on_gpu, space.concurrency())) : time_limit;
      std::optional<SearchResult> searched;
      auto search_it = [&](double seconds) {
        searched = search_component(space, sub, options, seconds, result, options.certify ? &certified : nullptr);
      };
      if (size > auto_dp_limit(options) && lp_available()) search_it(std::min(time_limit, dp_seconds));
      bool proven = searched && searched->proven();
      proven = options.communicator.holds_on_every_rank(proven);  // the DP has collectives
      // The DP after an unfinished search only where it is expected within time_limit (or a
      // second): a time limit below the DP's time asks for the best ranking and its gap instead.
      if (!proven && dp_possible && dp_seconds <= std::max(time_limit, 1.0)) {
        const Result exact = Impl::solve_dp(space, sub, options, workspace);
        local = exact.optima;
        local_count = exact.count;
        local_saturated = exact.count_saturated;
        result.ranks = std::max(result.ranks, exact.ranks);
        result.exchange_s += exact.exchange_s;
        result.dp_layers_s += exact.dp_layers_s;
        how = "dp";
      } else {
        if (!searched) search_it(time_limit);
        local = searched->proven() ? searched->optima : std::vector<Ranking>{searched->optima.front()};
        local_count = searched->proven() ? searched->count : 1;
        counted = counted && searched->count_exact;
        gap += searched->distance - searched->bound;
        result.exact = result.exact && searched->proven();
        result.lp_missing = result.lp_missing || (!searched->proven() && !lp_available());
        // proven with no LP node: the heuristic ranking met the simple bound
        how = !searched->proven() || searched->nodes == 0 ? "heuristic" : searched->nodes > 1 ? "branch-and-cut" : "lp";
      }
    }
    result.component_methods.push_back(how);
    if (options.certify) {
      certified.method = how;
      certified.distance = distance(sub, local.front());
      certificate->components.push_back(std::move(certified));
    }
    if (how != "trivial" && methods.find("+" + how) == std::string::npos) methods += "+" + how;
    const unsigned __int128 product = static_cast<unsigned __int128>(result.count) * local_count;
    result.count_saturated = result.count_saturated || local_saturated || product > ~std::uint64_t{0};
    result.count = result.count_saturated ? ~std::uint64_t{0} : static_cast<std::uint64_t>(product);
    for (auto& ranking : local) {
      for (auto& a : ranking) a = component[a];
    }
    parts.push_back(std::move(local));
  }
  // Optimal rankings: every combination of the components' optima, up to the limit.
  std::vector<Ranking> combined = {{}};
  for (const auto& options_of_part : parts) {
    std::vector<Ranking> next;
    for (const auto& prefix : combined) {
      for (const auto& part : options_of_part) {
        if (static_cast<int>(next.size()) >= std::max(1, options.list_limit)) break;
        Ranking joined = prefix;
        joined.insert(joined.end(), part.begin(), part.end());
        next.push_back(std::move(joined));
      }
    }
    combined = std::move(next);
  }
  result.optima = std::move(combined);
  result.distance = distance(o, result.optima[0]);
  result.lower_bound = result.distance - gap;
  result.count_known = result.exact && counted;
  if (!result.exact) result.count = 0;  // else exact, or (not counted) at least this many
  result.method = "decomposition" + methods;
  if (options.certify && result.exact) result.certificate = std::move(certificate);
  return result;
}

}  // namespace kollective::kemeny::Impl

#endif
