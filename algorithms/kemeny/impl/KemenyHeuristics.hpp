#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_HEURISTICS_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_HEURISTICS_HPP

/// \file KemenyHeuristics.hpp
/// The host parts of Kemeny's solver: heuristic rankings (each an upper bound on the optimum)
/// and the Condorcet decomposition that splits a profile into independent components.

#include <Kokkos_Macros.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

Ranking borda(const Counts& o);     ///< by sum over j of o[i][j], ties by index
Ranking copeland(const Counts& o);  ///< by pairwise wins (ties 1/2), then Borda
/// KwikSort (Ailon, Charikar, Newman): pivot recursively; deterministic for a given seed.
Ranking kwiksort(const Counts& o, std::uint64_t seed);
/// Improves a ranking by moving single alternatives to their best position until no move helps.
Ranking local_search(const Counts& o, Ranking ranking);
/// Best heuristic ranking: Borda, Copeland and KwikSort, each improved by local search.
Ranking best_heuristic(const Counts& o, std::uint64_t seed);

/// When iterated_local_search stops: after `seconds`, after `rounds` rounds, or after
/// `stale_rounds` rounds of a chain without a better ranking (0: no limit on that), or once the
/// distance reaches `floor` (a proven lower bound: nothing better exists). The host's searches
/// also stop at their next round once `*stop` is true (another search running beside them has
/// proven the optimum).
struct SearchLimits {
  double seconds = 0;
  std::int64_t rounds = 0;
  std::int64_t stale_rounds = 0;
  std::uint64_t floor = 0;
  const std::atomic<bool>* stop = nullptr;
  bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
};

/// margin(a, b) = o[a][b] - o[b][a], row by row (n x n): what a distance gains when a passes
/// above b. The iterated local search's table, on the host and (copied) on a device.
class Margins {
 public:
  explicit Margins(const Counts& o) : n_(o.alternatives), cells_(std::size_t(n_) * n_) {
    for (int a = 0; a < n_; ++a) {
      for (int b = 0; b < n_; ++b) cells_[std::size_t(a) * n_ + b] = std::int64_t{o.at(a, b)} - o.at(b, a);
    }
  }
  const std::int64_t* row(int a) const { return cells_.data() + std::size_t(a) * n_; }

 private:
  int n_;
  std::vector<std::int64_t> cells_;
};

/// Each ranking descended to a local optimum of the insertion moves (in place) on the host's
/// threads, its distance into `distances` (sized as `rankings`).
void descend_on_host(const Margins& margins, const Counts& o, std::vector<Ranking>& rankings,
                     std::vector<std::uint64_t>& distances);

/// Random moves a round of the iterated local search begins with: n / 10, at least 8 and at most
/// 48. On RandA1's t1d500.07 and t1d500.25 (n = 500) at 60 s, 48 moves against 8 ended 0.041%
/// and 0.032% below the best known values against 0.193% and 0.167% on the 2-core CPU, and 0.031%
/// below and 0.001% above against 0.160% and 0.067% on an H200, where 16, 32 and 64 fell between
/// (perf/results/kemeny/cpu_anytime/, gpu_anytime/).
KOKKOS_INLINE_FUNCTION constexpr int round_kicks(int n) { return n / 10 < 8 ? 8 : n / 10 > 48 ? 48 : n / 10; }

/// How far above the best distance (1 / accept_above_best of it) a round's result may be and
/// still be kept: on a random matrix of 500 (RandA1's t1d500.01), keeping rounds within 0.1% of
/// the best ended 20-s runs 0.13% lower than keeping only rounds no worse (record
/// perf/results/kemeny/cpu_anytime/).
constexpr std::uint64_t accept_above_best = 1000;

/// Iterated local search for large profiles (Schiavinotto and Stützle's ILS for the linear
/// ordering problem): each round moves a few random alternatives to random places, descends by
/// best insertion moves (an alternative is looked at again only once a move passes it), and keeps
/// the result when it is within 0.1% of the best distance; after n rounds without a better ranking
/// it goes back to the best one. One chain per host thread, seeded seed + chain; the best ranking
/// any chain found, polished by local_search. Never worse than `start`; deterministic for a given
/// number of host threads when only `rounds` limits it.
Ranking iterated_local_search(const Counts& o, const Ranking& start, const SearchLimits& limits, std::uint64_t seed);

/// Memetic search for large profiles (Segura, Lugo and Miranda's memetic algorithm with
/// enhanced diversity management for the linear ordering problem): a population of local optima
/// of the insertion moves (`start` and random rankings, descended until no move gains); each
/// generation as many children, each the cycle crossover of two parents (the better of two drawn,
/// twice), descended; the next population is the best member, then the best of those at least a
/// spread (footrule) from every member taken, the spread falling from the first population's mean
/// to 0 as the time (or the rounds, one per generation) runs out. The children of a generation
/// are made on the host threads; each draws from (seed, generation, child), so under a round limit
/// the answer does not depend on the number of threads. Never worse than `start`; `start` itself
/// where population_size < 1.
Ranking memetic_search(const Counts& o, const Ranking& start, const SearchLimits& limits, std::uint64_t seed,
                       int population_size);

/// Descends each ranking to a local optimum of the insertion moves (in place), its distance into
/// `distances` (sized as `rankings`).
using DescendBatch = std::function<void(std::vector<Ranking>& rankings, std::vector<std::uint64_t>& distances)>;
/// memetic_search with `children` a generation, every batch of rankings (the first population, a
/// generation's children) descended by `descend`.
Ranking memetic_search(const Counts& o, const Ranking& start, const SearchLimits& limits, std::uint64_t seed,
                       int population_size, int children, const DescendBatch& descend);

/// Strongly connected components of the majority graph (edge i -> j when o[i][j] >= o[j][i],
/// i != j), in the order they appear in every Kemeny ranking; each component lists its
/// alternatives in increasing index order.
std::vector<std::vector<int>> condorcet_components(const Counts& o);

/// The outranking matrix restricted to `alternatives` (in that order).
Counts restrict_to(const Counts& o, const std::vector<int>& alternatives);

}  // namespace kollective::kemeny

#endif
