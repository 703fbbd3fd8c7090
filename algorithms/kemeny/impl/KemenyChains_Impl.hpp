#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_CHAINS_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_CHAINS_IMPL_HPP

/// \file KemenyChains_Impl.hpp
/// The iterated local search of KemenyHeuristics.hpp on an execution space: many chains at once,
/// one per team, whose vector lanes share each step (an insertion scan is a prefix sum over the
/// ranking and a first-minimum over it; a move copies the span it rotates). Each round is the host
/// chain's: round_kicks random moves, a descent by best insertions (ties broken as the host scan
/// does), kept within 1 / accept_above_best of the chain's best, back to the best after n
/// fruitless rounds.
/// Every step is exact integer arithmetic with total tie-breaks, so under a round limit a chain's
/// path depends on (seed, chain) alone: any backend and any vector length give the same rankings.
/// Between launches (at most rounds_per_launch rounds) the host checks the time and the bound, and
/// the chains that share (every other one) restart from the best ranking any chain has found when
/// theirs is worse.
/// Do not include directly: include algorithms/kemeny/Kemeny.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"

namespace kollective::kemeny::Impl {

/// How the chains run: 0 chains picks one per host thread on the host and one per 64 device
/// threads on a GPU (a team of 32 lanes; half as many teams as could be resident at once).
struct ChainSettings {
  int chains = 0;
  std::int64_t rounds_per_launch = 64;
  bool share_best = true;
};

/// A chain's figures that outlive a launch.
struct ChainState {
  std::uint64_t distance = 0;
  std::uint64_t best_distance = 0;
  std::uint64_t draws = 0;     ///< draws taken from the chain's stream
  std::int64_t fruitless = 0;  ///< rounds since its best improved
};

/// The chains' arrays, one row per chain.
template <class Memory>
struct ChainArrays {
  int n = 0;
  Kokkos::View<const std::int64_t**, Kokkos::LayoutRight, Memory> margin;  ///< o[a][b] - o[b][a]
  Kokkos::View<int**, Kokkos::LayoutRight, Memory> ranking, place, best, before, moved, pending, queued;
  Kokkos::View<std::int64_t**, Kokkos::LayoutRight, Memory> key;
  Kokkos::View<ChainState*, Memory> state;

  template <class ExecSpace>
  ChainArrays(const ExecSpace& space, int alternatives, int chains) : n(alternatives) {
    const auto rows = [&](const std::string& name) {
      return Kokkos::View<int**, Kokkos::LayoutRight, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, name), chains, n);
    };
    ranking = rows("Kollective::Kemeny::chain_ranking");
    place = rows("Kollective::Kemeny::chain_place");
    best = rows("Kollective::Kemeny::chain_best");
    before = rows("Kollective::Kemeny::chain_before");
    moved = rows("Kollective::Kemeny::chain_moved");
    pending = rows("Kollective::Kemeny::chain_pending");
    queued = rows("Kollective::Kemeny::chain_queued");
    key = Kokkos::View<std::int64_t**, Kokkos::LayoutRight, Memory>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::chain_key"), chains, n);
    state = Kokkos::View<ChainState*, Memory>(Kokkos::view_alloc(space, "Kollective::Kemeny::chain_state"), chains);
  }

  /// Bytes of the arrays of `chains` chains of n alternatives, the margins included.
  static std::int64_t bytes(int n, int chains) {
    return std::int64_t{n} * n * 8 + std::int64_t{chains} * n * (7 * 4 + 8) + std::int64_t{chains} * sizeof(ChainState);
  }
};

/// One chain, run by one team's vector lanes (whole_team: by the team's threads, a vector lane
/// each). Every lane holds the same scalars; arrays are written inside the team's loops (or by one
/// lane) and read after a team barrier.
template <class Member, class Memory, bool whole_team = false>
class TeamChain {
 public:
  using Arrays = ChainArrays<Memory>;

  KOKKOS_FUNCTION TeamChain(const Member& team, const Arrays& arrays, std::uint64_t mixed_seed)
      : team_(team),
        n_(arrays.n),
        margin_(arrays.margin.data()),
        ranking_(&arrays.ranking(team.league_rank(), 0)),
        place_(&arrays.place(team.league_rank(), 0)),
        best_(&arrays.best(team.league_rank(), 0)),
        before_(&arrays.before(team.league_rank(), 0)),
        moved_(&arrays.moved(team.league_rank(), 0)),
        pending_(&arrays.pending(team.league_rank(), 0)),
        queued_(&arrays.queued(team.league_rank(), 0)),
        key_(&arrays.key(team.league_rank(), 0)),
        state_(arrays.state(team.league_rank())),
        seed_(mixed_seed ^ mix64(static_cast<std::uint64_t>(team.league_rank()))) {}

  KOKKOS_FUNCTION const ChainState& state() const { return state_; }
  KOKKOS_FUNCTION int index() const { return team_.league_rank(); }

  /// From `start` (distance `distance`): every alternative looked at once, the result the best.
  KOKKOS_FUNCTION void begin(const int* start, std::uint64_t distance) {
    lanes(n_, [&](int p) {
      ranking_[p] = start[p];
      place_[start[p]] = p;
      pending_[p] = start[p];
      queued_[start[p]] = 1;
    });
    top_ = n_;
    state_ = ChainState{};
    state_.distance = distance;
    descend();
    keep_as_best();
  }

  /// From `start` (distance `distance`), every alternative looked at again until a pass moves
  /// none: a local optimum of the insertion moves, as the host's memetic search descends a child.
  KOKKOS_FUNCTION void descend_from(const int* start, std::uint64_t distance) {
    begin(start, distance);
    int* const ranking = ranking_;
    int* const pending = pending_;
    int* const queued = queued_;
    for (std::uint64_t before = state_.distance + 1; state_.distance < before;) {
      before = state_.distance;
      lanes(n_, [&](int p) {
        pending[p] = ranking[p];
        queued[ranking[p]] = 1;
      });
      top_ = n_;
      descend();
    }
  }

  /// One round of the iterated local search.
  KOKKOS_FUNCTION void round() {
    copy(before_, ranking_);
    const std::uint64_t before_distance = state_.distance;
    for (int k = 0; k < round_kicks(n_); ++k) {
      const int from = static_cast<int>(bounded(draw(), static_cast<std::uint64_t>(n_)));
      const int to = static_cast<int>(bounded(draw(), static_cast<std::uint64_t>(n_)));
      state_.distance -= static_cast<std::uint64_t>(gain(from, to));  // modulo 2^64: a loss adds
      move(from, to);
    }
    descend();
    if (state_.distance < state_.best_distance) {
      keep_as_best();
    } else if (++state_.fruitless > n_) {
      restore(best_, state_.best_distance);
      state_.fruitless = 0;
    } else if (state_.distance > state_.best_distance + state_.best_distance / accept_above_best) {
      restore(before_, before_distance);
    }
  }

  /// Starts again from `ranking` (distance `distance`), which becomes the chain's best.
  KOKKOS_FUNCTION void adopt(const int* ranking, std::uint64_t distance) {
    restore(ranking, distance);
    keep_as_best();
  }

  KOKKOS_FUNCTION void save(ChainState& out) const {
    once([&] { out = state_; });
  }

 private:
  /// [0, count) spread over the lanes that run the chain.
  KOKKOS_FUNCTION auto range(int count) const {
    if constexpr (whole_team) {
      return Kokkos::TeamThreadRange(team_, count);
    } else {
      return Kokkos::ThreadVectorRange(team_, count);
    }
  }

  /// f() by one of the lanes that run the chain.
  template <class F>
  KOKKOS_FUNCTION void once(const F& f) const {
    if constexpr (whole_team) {
      Kokkos::single(Kokkos::PerTeam(team_), f);
    } else {
      Kokkos::single(Kokkos::PerThread(team_), f);
    }
  }

  /// f(p) for p in [0, count), by the lanes; then a barrier, so every lane sees the writes.
  template <class F>
  KOKKOS_FUNCTION void lanes(int count, const F& f) const {
    Kokkos::parallel_for(range(count), f);
    team_.team_barrier();
  }

  KOKKOS_FUNCTION void copy(int* to, const int* from) const {
    lanes(n_, [&](int p) { to[p] = from[p]; });
  }

  KOKKOS_FUNCTION std::uint64_t draw() { return hash_draw_mixed(seed_, state_.draws++); }

  KOKKOS_FUNCTION void keep_as_best() {
    copy(best_, ranking_);
    state_.best_distance = state_.distance;
    state_.fruitless = 0;
  }

  KOKKOS_FUNCTION void restore(const int* ranking, std::uint64_t distance) {
    lanes(n_, [&](int p) {
      ranking_[p] = ranking[p];
      place_[ranking[p]] = p;
    });
    state_.distance = distance;
  }

  /// What the distance falls by when the alternative at `from` moves to `to`.
  KOKKOS_FUNCTION std::int64_t gain(int from, int to) const {
    const std::int64_t* row = margin_ + static_cast<std::int64_t>(ranking_[from]) * n_;
    const int* ranking = ranking_;
    std::int64_t total = 0;
    if (to < from) {
      Kokkos::parallel_reduce(
          range(from - to), [&](int i, std::int64_t& sum) { sum += row[ranking[to + i]]; }, total);
    } else if (to > from) {
      Kokkos::parallel_reduce(
          range(to - from), [&](int i, std::int64_t& sum) { sum -= row[ranking[from + 1 + i]]; }, total);
    }
    return total;
  }

  /// The alternative at `from` to `to`; every alternative in the span it rotates is looked at again.
  KOKKOS_FUNCTION void move(int from, int to) {
    const int a = ranking_[from], low = Kokkos::min(from, to), span = Kokkos::abs(to - from) + 1;
    int* const ranking = ranking_;
    int* const moved = moved_;
    lanes(span, [&](int i) {
      const int p = low + i;
      moved[p] = p == to ? a : ranking[from < to ? p + 1 : p - 1];
    });
    int* const place = place_;
    lanes(span, [&](int i) {
      const int p = low + i;
      ranking[p] = moved[p];
      place[moved[p]] = p;
    });
    // Pushed in increasing place, as the host chain does.
    int* const pending = pending_;
    int* const queued = queued_;
    const int top = top_;
    int added = 0;
    Kokkos::parallel_scan(
        range(span),
        [&](int i, int& offset, bool final) {
          const int b = moved[low + i];
          const int fresh = queued[b] == 0 ? 1 : 0;
          if (final && fresh) {
            pending[top + offset] = b;
            queued[b] = 1;
          }
          offset += fresh;
        },
        added);
    top_ += added;
    team_.team_barrier();
  }

  /// Best insertion moves of the pending alternatives while one gains.
  KOKKOS_FUNCTION void descend() {
    while (top_ > 0) {
      const int a = pending_[--top_];
      team_.team_barrier();  // every lane has read the top before it is written again
      int* const queued = queued_;
      once([&] { queued[a] = 0; });
      const int from = place_[a];
      int to = from;
      const std::int64_t gained = whole_team ? best_insertion_by_blocks(a, from, to) : best_insertion(a, from, to);
      if (gained > 0) {
        state_.distance -= static_cast<std::uint64_t>(gained);
        move(from, to);
      }
    }
  }

  /// best_insertion for a whole team: each thread walks a contiguous block of the ranking twice (its
  /// sum, then its keys from the sum of the blocks before it, in registers), so a step is one team
  /// scan and two team reductions and the keys are never written to memory. On an H200 it made 1.5-1.9x
  /// the generations of best_insertion's TeamThreadRange scan at 1000 alternatives.
  KOKKOS_FUNCTION std::int64_t best_insertion_by_blocks(int a, int from, int& to) const {
    const std::int64_t* row = margin_ + static_cast<std::int64_t>(a) * n_;
    const int* ranking = ranking_;
    const int n = n_, threads = team_.team_size();
    const int per = (n + threads - 1) / threads;
    const int first = Kokkos::min(n, team_.team_rank() * per), last = Kokkos::min(n, first + per);
    std::int64_t block = 0;
    for (int p = first; p < last; ++p) block += p == from ? 0 : row[ranking[p]];
    std::int64_t prefix = team_.team_scan(block);
    typename Lowest::value_type lowest;
    Lowest(lowest).init(lowest);
    std::int64_t stay = 0;
    for (int p = first; p < last; ++p) {
      const std::int64_t value = p == from ? 0 : row[ranking[p]];
      const std::int64_t key = p > from ? prefix + value : prefix;
      prefix += value;
      if (p == from) stay = key;
      keep_lower(lowest, key, p, from, n);
    }
    team_.team_reduce(Kokkos::Sum<std::int64_t>(stay));
    team_.team_reduce(Lowest(lowest));
    to = place_in_order(lowest.loc, from, n);
    return stay - lowest.val;
  }

  /// The best place `to` for alternative `a` at `from` and what moving there gains (0: stay), the
  /// host scan's choice: the largest gain, first among places above nearest first, then below.
  /// key[p] is the prefix sum of row[ranking[q]] over q < p (q <= p below `from`), so moving to p
  /// gains key[from] - key[p].
  KOKKOS_FUNCTION std::int64_t best_insertion(int a, int from, int& to) const {
    const std::int64_t* row = margin_ + static_cast<std::int64_t>(a) * n_;
    const int* ranking = ranking_;
    std::int64_t* key = key_;
    const int n = n_;
    Kokkos::parallel_scan(range(n), [&](int p, std::int64_t& prefix, bool final) {
      const std::int64_t value = p == from ? 0 : row[ranking[p]];
      if (final) key[p] = p > from ? prefix + value : prefix;
      prefix += value;
    });
    team_.team_barrier();
    typename Lowest::value_type lowest;
    Kokkos::parallel_reduce(
        range(n), [&](int p, typename Lowest::value_type& found) { keep_lower(found, key[p], p, from, n); },
        Lowest(lowest));
    const std::int64_t stay = key[from];
    team_.team_barrier();  // every lane has read the keys before the next scan writes them
    to = place_in_order(lowest.loc, from, n);
    return stay - lowest.val;
  }

  /// The lowest key of a best insertion and its place's order in the host scan: places above
  /// `from` nearest first, then those below, `from` itself last (on equal keys, the earliest wins).
  using Lowest = Kokkos::MinFirstLoc<std::int64_t, int, Kokkos::AnonymousSpace>;

  /// `lowest` becomes place p's (key `key`) where p's key is lower, or equal and p comes earlier.
  KOKKOS_FUNCTION static void keep_lower(typename Lowest::value_type& lowest, std::int64_t key, int p, int from,
                                         int n) {
    const int order = p < from ? from - 1 - p : (p > from ? p - 1 : n - 1);
    if (key < lowest.val || (key == lowest.val && order < lowest.loc)) {
      lowest.val = key;
      lowest.loc = order;
    }
  }

  /// The place that comes `order`-th in the host scan (keep_lower's order).
  KOKKOS_FUNCTION static int place_in_order(int order, int from, int n) {
    return order < from ? from - 1 - order : (order < n - 1 ? order + 1 : from);
  }

  const Member& team_;
  int n_;
  const std::int64_t* margin_;
  int *ranking_, *place_, *best_, *before_, *moved_, *pending_, *queued_;
  std::int64_t* key_;
  ChainState state_;
  std::uint64_t seed_;
  int top_ = 0;
};

/// The team policy of the chains: one team of `lanes` vector lanes per chain.
template <class ExecSpace>
int chain_lanes() {
  return runs_on_host<ExecSpace> ? 1 : 32;
}

/// Runs body(chain) on every chain, one team each, and saves the chains' state.
template <class ExecSpace, class Body>
void launch_chains(const ExecSpace& space, const char* name,
                   const ChainArrays<typename ExecSpace::memory_space>& arrays, int chains, std::uint64_t mixed_seed,
                   const Body& body) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Memory = typename ExecSpace::memory_space;
  Kokkos::parallel_for(
      name, Policy(space, chains, 1, chain_lanes<ExecSpace>()), KOKKOS_LAMBDA(const Member& team) {
        TeamChain<Member, Memory> chain(team, arrays, mixed_seed);
        body(chain);
        chain.save(arrays.state(team.league_rank()));
      });
}

/// The margins (Margins) in the memory of `space`.
template <class ExecSpace>
Kokkos::View<const std::int64_t**, Kokkos::LayoutRight, typename ExecSpace::memory_space> device_margins(
    const ExecSpace& space, const Counts& o) {
  const int n = o.alternatives;
  Kokkos::View<std::int64_t**, Kokkos::LayoutRight, typename ExecSpace::memory_space> margin(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::chain_margin"), n, n);
  const Margins margins(o);
  const Kokkos::View<const std::int64_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
      margins.row(0), n, n);
  Kokkos::deep_copy(space, margin, host);
  space.fence();  // before `margins` goes
  return margin;
}

/// Threads of a team that descends one of the memetic search's children on a GPU. On an H200 at
/// 1000 alternatives (60 s, scans by blocks) 64 threads with 4096 children a generation descended
/// 2.3x the children a minute of 256 threads with 1024 (241,664 against 106,496: a GPU full of
/// small teams), 32 threads with 8192 1.3x; with TeamThreadRange scans and 1024 children a warp
/// a child had made 31 generations a minute, 256 threads 53-54 (record
/// perf/results/kemeny/gpu_anytime/).
constexpr int descent_threads = 64;

/// Batches of rankings descended on `space` as the memetic search's children are (TeamChain::
/// descend_from), one team each whose threads share each scan (descent_threads of them on a GPU),
/// at most `capacity` at once: the memetic search's DescendBatch on a device. A ranking's distance
/// is found there too: with S the sum of margin(b, a) over the pairs a placed above b, and T the
/// sum of o over all ordered pairs, the distance is (T + S) / 2. `threads` (0: one on the host,
/// descent_threads on a GPU) sets each team's threads, at most the space's most.
template <class ExecSpace>
class DeviceDescents {
 public:
  using Memory = typename ExecSpace::memory_space;
  DeviceDescents(const ExecSpace& space, const Counts& o, int capacity, int threads = 0)
      : space_(space),
        arrays_(allocate(space, o.alternatives, capacity)),
        capacity_(capacity),
        threads_(threads > 0               ? threads
                 : runs_on_host<ExecSpace> ? 1
                                           : descent_threads) {
    arrays_.margin = device_margins(space, o);
    for (int a = 0; a < o.alternatives; ++a)
      for (int b = 0; b < o.alternatives; ++b) total_ += a == b ? 0 : static_cast<std::uint64_t>(o.at(a, b));
    starts_ = Kokkos::create_mirror_view(arrays_.before);
    ends_ = Kokkos::create_mirror_view(arrays_.ranking);
    states_ = Kokkos::create_mirror_view(arrays_.state);
  }

  void operator()(std::vector<Ranking>& rankings, std::vector<std::uint64_t>& distances) {
    for (std::size_t first = 0; first < rankings.size(); first += static_cast<std::size_t>(capacity_)) {
      const int count = static_cast<int>(std::min<std::size_t>(capacity_, rankings.size() - first));
      descend(rankings.data() + first, distances.data() + first, count);
    }
  }

  /// `count` rankings (at most the capacity) descended; public for CUDA's lambda.
  void descend(Ranking* rankings, std::uint64_t* distances, int count) {
    const int n = arrays_.n;
    for (int c = 0; c < count; ++c) std::copy(rankings[c].begin(), rankings[c].end(), &starts_(c, 0));
    Kokkos::deep_copy(space_, arrays_.before, starts_);
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    using Member = typename Policy::member_type;
    const ChainArrays<Memory> arrays = arrays_;
    const std::uint64_t total = total_;
    const auto body = KOKKOS_LAMBDA(const Member& team) {
      const int* start = &arrays.before(team.league_rank(), 0);
      const std::int64_t* margin = arrays.margin.data();
      std::int64_t below = 0;  // the sum of margin(a, b) over the pairs a placed above b: -S
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, n),
          [&](int p, std::int64_t& sum) {
            const std::int64_t* row = margin + static_cast<std::int64_t>(start[p]) * n;
            for (int q = p + 1; q < n; ++q) sum += row[start[q]];
          },
          below);
      TeamChain<Member, Memory, true> chain(team, arrays, 0);
      chain.descend_from(start, (total - static_cast<std::uint64_t>(below)) / 2);
      chain.save(arrays.state(team.league_rank()));
    };
    const int threads = Kokkos::min(threads_, Policy(space_, count, 1).team_size_max(body, Kokkos::ParallelForTag()));
    Kokkos::parallel_for("Kollective::Kemeny::memetic_descents", Policy(space_, count, threads, 1), body);
    Kokkos::deep_copy(space_, ends_, arrays_.ranking);
    Kokkos::deep_copy(space_, states_, arrays_.state);
    space_.fence("Kollective::Kemeny::memetic_descents");
    for (int c = 0; c < count; ++c) {
      std::copy(&ends_(c, 0), &ends_(c, 0) + n, rankings[c].begin());
      distances[c] = states_(c).distance;
    }
  }

 private:
  static ChainArrays<Memory> allocate(const ExecSpace& space, int n, int capacity) {
    require_memory(
        memory_kind<Memory>(), ChainArrays<Memory>::bytes(n, capacity),
        "the memetic search's " + std::to_string(capacity) + " descents of " + std::to_string(n) + " alternatives");
    return ChainArrays<Memory>(space, n, capacity);
  }

  ExecSpace space_;
  ChainArrays<Memory> arrays_;
  int capacity_;
  int threads_;
  std::uint64_t total_ = 0;
  typename Kokkos::View<int**, Kokkos::LayoutRight, Memory>::HostMirror starts_, ends_;
  typename Kokkos::View<ChainState*, Memory>::HostMirror states_;
};

/// iterated_local_search (KemenyHeuristics.hpp) with its chains on `space`; the best ranking any
/// chain found, polished by local_search. `limits.rounds` and `limits.stale_rounds` count each
/// chain's rounds; under a round limit the result depends on (seed, settings) alone.
template <class ExecSpace>
Ranking iterated_local_search(const ExecSpace& space, const Counts& o, const Ranking& start, const SearchLimits& limits,
                              std::uint64_t seed, const ChainSettings& settings = {}) {
  const WallTimer timer;
  const int n = o.alternatives;
  if (n < 3) return start;
  using Memory = typename ExecSpace::memory_space;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const int lanes = chain_lanes<ExecSpace>();
  const int chains =
      settings.chains > 0 ? settings.chains : Kokkos::max(1, space.concurrency() / (lanes > 1 ? 2 * lanes : 1));
  require_memory(
      memory_kind<Memory>(), ChainArrays<Memory>::bytes(n, chains),
      "the iterated local search's " + std::to_string(chains) + " chains of " + std::to_string(n) + " alternatives");
  ChainArrays<Memory> arrays(space, n, chains);
  arrays.margin = device_margins(space, o);
  Kokkos::View<int*, Memory> shared(  // the start, then the best
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Kemeny::chain_shared"), n);
  {
    Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> given(start.data(), n);
    Kokkos::deep_copy(space, shared, given);
  }
  const std::uint64_t mixed_seed = mix64(seed);
  {
    const std::uint64_t distance_of_start = distance(o, start);
    const int* begin_at = shared.data();
    launch_chains(
        space, "Kollective::Kemeny::chains_begin", arrays, chains, mixed_seed,
        KOKKOS_LAMBDA(TeamChain<Member, Memory> & chain) { chain.begin(begin_at, distance_of_start); });
  }
  auto state = Kokkos::create_mirror_view(arrays.state);
  std::uint64_t best_distance = ~std::uint64_t{0};
  int best_chain = 0;
  // Under a time limit the launches begin with one round and double up to rounds_per_launch, and
  // the last ones are cut to the time left at the last launch's pace: at n = 1000 on an H200 a
  // launch of 64 rounds took seconds, and overran a 60 s limit by 8 s.
  std::int64_t rounds = 0, stale = 0, launched = 0;
  std::int64_t per_launch = limits.seconds > 0 ? 1 : settings.rounds_per_launch;
  double launched_at = 0, pace = 0;  // pace: rounds a second
  while (true) {
    Kokkos::deep_copy(space, state, arrays.state);
    space.fence();
    kollective::Impl::interruption_point();
    if (launched > 0) pace = launched / Kokkos::max(1e-6, timer.seconds() - launched_at);
    const std::uint64_t before = best_distance;
    for (int c = 0; c < chains; ++c) {
      if (state(c).best_distance < best_distance) best_distance = state(c).best_distance, best_chain = c;
    }
    stale = best_distance < before ? 0 : stale + launched;
    if (best_distance <= limits.floor) break;
    if (limits.rounds > 0 && rounds >= limits.rounds) break;
    if (limits.stale_rounds > 0 && stale >= limits.stale_rounds) break;
    if (limits.seconds > 0 && timer.seconds() >= limits.seconds) break;
    std::int64_t now = per_launch;
    if (limits.rounds > 0) now = Kokkos::min(now, limits.rounds - rounds);
    if (limits.seconds > 0 && pace > 0)
      now = Kokkos::max<std::int64_t>(1, Kokkos::min<std::int64_t>(now, pace * (limits.seconds - timer.seconds())));
    per_launch = Kokkos::min(2 * per_launch, settings.rounds_per_launch);
    rounds += now;
    launched = now;
    launched_at = timer.seconds();
    Kokkos::deep_copy(space, shared, Kokkos::subview(arrays.best, best_chain, Kokkos::ALL));
    const int* leader = shared.data();
    const std::uint64_t leading = best_distance, floor = limits.floor;
    const bool share = settings.share_best;
    launch_chains(
        space, "Kollective::Kemeny::chains_round", arrays, chains, mixed_seed,
        KOKKOS_LAMBDA(TeamChain<Member, Memory> & chain) {
          if (share && chain.state().best_distance > leading && chain.index() % 2 == 1) chain.adopt(leader, leading);
          for (std::int64_t r = 0; r < now && chain.state().best_distance > floor; ++r) chain.round();
        });
  }
  Ranking best(n);
  {
    Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> found(best.data(), n);
    Kokkos::deep_copy(space, found, Kokkos::subview(arrays.best, best_chain, Kokkos::ALL));
    space.fence();
  }
  if (distance(o, best) != best_distance)
    fail("iterated local search: chain ", best_chain, " tracked distance ", best_distance, " for a ranking at ",
         distance(o, best), " (internal error)");
  return local_search(o, best);
}

}  // namespace kollective::kemeny::Impl

#endif
