#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_LP_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_LP_HPP

/// \file KemenyLP.hpp
/// Kemeny's linear-programming relaxation: x_ij in [0, 1] for i < j (1: i before j), cost
/// o[j][i] x_ij + o[i][j] (1 - x_ij), and the transitivity (triangle) inequalities
///   x_ij + x_jk - x_ik <= 1   and   x_ik <= x_ij + x_jk   for i < j < k,
/// added as cutting planes: solve, find violated triangles, add them, solve again (COIN-OR CLP's
/// dual simplex, warm-started). Triangles left slack and unpriced by a solve are taken out before
/// the next ones go in, which keeps the later solves small; Möbius ladders and fences may be added too
/// (Separation). The optimum of the LP with any subset of the cuts bounds every
/// ranking's distance from below. The bound is taken from the row prices by weak duality, in
/// exact arithmetic: prices rounded to multiples of 2^-price_bits, every sum in 128-bit integers
/// (the safe dual bound of Neumaier and Shcherbina, "Safe bounds in linear and mixed-integer linear
/// programming", 2004, with exact sums instead of directed rounding). It holds at every magnitude,
/// whatever the solver's tolerances; the solver's accuracy only decides how close it comes to the
/// LP optimum.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// A triangle inequality for i < j < k: `upper`: x_ij + x_jk - x_ik <= 1; else x_ik <= x_ij + x_jk.
struct Triangle {
  int i = 0, j = 0, k = 0;
  bool upper = true;
};

/// A Möbius ladder (Grötschel, Jünger and Reinelt, "Facets of the linear ordering polytope",
/// 1985): an odd number k of dicycles of 3 or 4 alternatives, each listed in order (a0 -> a1 -> ...
/// -> a0, the arc a -> b meaning a before b), consecutive ones (the last and the first too) sharing
/// exactly one arc and others none, no arc in three. Every ranking keeps at most |A| - (k + 1) / 2
/// of its arcs A (docs/certificates.md).
struct Ladder {
  std::vector<std::vector<int>> cycles;
};

/// A fence (same reference): t >= 3 pales (u_i, l_i) over 2t distinct alternatives; its arcs are
/// the pales u_i -> l_i and the crosses l_j -> u_i for i != j, of which every ranking keeps at most
/// t^2 - t + 1 (docs/certificates.md). The 3-fence is also a ladder of three 4-dicycles.
struct Fence {
  std::vector<std::pair<int, int>> pales;
};

/// A row of the LP: a triangle inequality, or a ladder or a fence where one is set (shared: a row
/// is copied into the prices of every solve and proof that keeps it, and triangles should stay
/// cheap).
struct Cut {
  Triangle triangle;
  std::shared_ptr<const Ladder> ladder;
  std::shared_ptr<const Fence> fence;
  bool is_triangle() const { return !ladder && !fence; }
};

/// A cut's distinct arcs (a, b) in the order its cycles give them (a triangle's: the dicycle
/// i -> j -> k if upper, else i -> k -> j), and the most of them that a ranking keeps.
struct CutArcs {
  std::vector<std::pair<int, int>> arcs;
  int most_kept = 0;
};
CutArcs cut_arcs(const Cut& cut);

/// Fixed-point values of the exact bounds: units of 2^-price_bits of a doubled count. Prices above
/// 2^60 (never met: they are at most the sums of the counts) are taken as 0, which any bound allows.
using Scaled = __int128;
constexpr int price_bits = 32;
constexpr Scaled price_unit = Scaled{1} << price_bits;

/// The greatest common divisor of the pairs' costs o_ji - o_ij (1 where they are all 0). Every
/// ranking's distance is the sum of o_ij over i < j plus the costs of the pairs i < j it puts i
/// before j, so any two distances differ by a multiple of it: 4 (of doubled counts) where every
/// pair's counts sum to the same even number, as with complete rankings from an even number of
/// voters.
std::int64_t distance_step(const Counts& o);

/// Violated triangles at an LP point: x[i * n + j] for i < j (the other entries are unused), at
/// most `per_pair` for each pair i < j (the most violated); where `guide` holds the positions of a
/// ranking (guide[a]: a's place), only the triangles tight at that ranking (empty: all).
using TriangleSeparation = std::function<std::vector<Triangle>(const std::vector<double>& x, int n, int per_pair,
                                                               const std::vector<int>& guide)>;

/// The most triangles a separation round takes for one pair.
constexpr int most_triangles_per_pair = 4;

/// What the LP adds as cuts: the violated triangles (a search on the caller's execution space) and,
/// at the first solve (a search's root) once no triangle is violated, violated Möbius ladders
/// (KemenyLadders.hpp) where `ladders` and violated fences (KemenyFences.hpp) where `fences`, until
/// a round of them lifts the bound by less than 1e-4 of it. The ladder and fence rows that the
/// first solve's optimum prices stay for every later solve (the others go when it ends); triangles
/// that neither bind nor hold a price are taken out between rounds and found again where violated.
struct Separation {
  TriangleSeparation triangles;
  bool ladders = false;
  bool fences = false;
  /// Triangles per pair in the first solve's rounds (later solves take one): more cuts a round,
  /// fewer rounds where the root's LP dominates (perf/results/kemeny/cpu_root_triangles/).
  int root_triangles = 1;
  /// Whether a search's root starts from the triangles a greedy dual prices at its best ranking
  /// (triangles_priced_at) and takes only the triangles tight there while some are violated
  /// (TriangleLp::solve's incumbent).
  bool guide_root = false;
};

/// The triangles tight at `ranking` that a greedy dual prices: the rows a guided root starts from.
/// At a ranking, each pair placed p < q keeps the arc from its p-th to its q-th alternative, whose
/// margin (votes for it less votes against) may be negative. A tight triangle (places p < m < q)
/// with weight w raises the long pair's reduced margin by w and lowers its two short pairs' by w;
/// the LP closes at the ranking exactly when weights exist that leave every margin at least 0 (dual
/// feasibility). The greedy goes by span q - p, shortest first, covering each pair's shortfall from
/// the middles whose short pairs have the most margin left; where they have too little, it first
/// lifts those short pairs from their own middles (one level deeper); it stops after the span
/// under way when `max_seconds` have passed (at 300 alternatives it may take seconds). Its
/// triangles are a good first LP where the ranking is optimal and the LP closes there (SGB's tables
/// of 75, perf/results/kemeny/cpu_greedy_dual/).
std::vector<Triangle> triangles_priced_at(const Counts& o, const Ranking& ranking,
                                          double max_seconds = std::numeric_limits<double>::infinity());

/// A lower bound on every ranking's distance from the same greedy at `ranking`, without lifting.
struct GreedyBound {
  std::uint64_t bound = 0;  ///< doubled: the ranking's distance less the margins left below 0
  /// The triangles and their weights, as TriangleLp's priced rows (weights in units of
  /// 1 / price_unit): weak duality with them gives `bound` exactly, so a proof may hold them.
  std::vector<std::pair<Cut, Scaled>> rows;
};
/// Where the LP cannot be solved in the time (hundreds of alternatives) it is the stronger bound
/// (perf/results/kemeny/cpu_greedy_dual/). Stops like triangles_priced_at; what it has priced by
/// then still bounds.
GreedyBound greedy_dual_bound(const Counts& o, const Ranking& ranking,
                              double max_seconds = std::numeric_limits<double>::infinity());

/// Whether this build has the LP solver (COIN-OR CLP); without it TriangleLp and lp_bound fail.
bool lp_available();

/// x(a, b), a before b, at an LP point x (x[i * n + j] for i < j): x_ab for a < b, else 1 - x_ba.
inline double arc_value(const std::vector<double>& x, int n, int a, int b) {
  return a < b ? x[static_cast<std::size_t>(a) * n + b] : 1 - x[static_cast<std::size_t>(b) * n + a];
}

/// Column of the pair variable x_ij (i < j) among the n (n - 1) / 2 columns.
inline int pair_column(int i, int j, int n) { return i * n - i * (i + 1) / 2 + (j - i - 1); }

/// The relaxation kept between solves, so that a search can fix pairs and solve again from the
/// last basis; the triangles found are valid everywhere and stay.
class TriangleLp {
 public:
  enum class Status {
    closed,      ///< optimal with no cut found violated: `bound` is this relaxation's optimum
    open,        ///< stopped by a limit: `bound` holds, but a closed solve may raise it
    infeasible,  ///< the fixed pairs admit no ranking
    enough,      ///< stopped once `bound` exceeded what the caller asked (solve's `enough`)
    rounds,      ///< stopped after max_rounds solves with cuts still violated (added for the next solve)
  };
  struct Solution {
    Status status = Status::open;
    std::uint64_t bound = 0;  ///< a lower bound on the distance (doubled) of every ranking meeting the fixings
    Ranking ranking;          ///< closed and integral: an optimal ranking under the fixings; else empty
    std::vector<double> x;    ///< x[i * n + j] for i < j
    /// The prices of the solve with the highest bound split every ranking's distance exactly, in
    /// units of 1 / price_unit, as
    ///   dual_value + sum of penalty[c] over the free columns c not at lean[c]
    ///              + sum over the rows (cut, w) of w times the cut's slack in the ranking
    ///                (most_kept less the arcs the ranking keeps),
    /// every term nonnegative (weak duality): a column whose penalty alone lifts dual_value past a
    /// known distance takes `lean` in every better ranking (reduced-cost fixing). `bound` is
    /// whole_distance(dual_value).
    Scaled dual_value = 0;
    std::vector<signed char> lean;
    std::vector<Scaled> penalty;
    std::vector<std::pair<Cut, Scaled>> priced_rows;  ///< rows with a nonzero price: minus the price
  };

  TriangleLp(const Counts& o, Separation separate);
  ~TriangleLp();
  TriangleLp(const TriangleLp&) = delete;
  TriangleLp& operator=(const TriangleLp&) = delete;

  /// What is enough for a caller, asked after each round with its LP point x: a distance such that
  /// the solve may stop once its bound reaches it (say, the best distance known, after trying a
  /// ranking rounded from x: then no ranking under the fixings is shorter).
  using Enough = std::function<std::uint64_t(const std::vector<double>& x)>;

  /// Solves with pairs fixed (by column: -1 free, 0: j before i, 1: i before j), adding violated
  /// cuts until none is found, `max_rounds` solves or `max_seconds`, or the bound is `enough`.
  /// Where `incumbent` (the caller's best ranking, which `enough` may change) is given, a first
  /// solve starts from triangles_priced_at(incumbent), and each round takes only the violated
  /// triangles tight at the incumbent, until none is: if the incumbent is optimal and
  /// the LP closes at it, the optimum's prices lie on those rows alone (complementary slackness),
  /// and the other half of the triangles would only slow the solves (SGB's tables of 75: 0.69x
  /// the time, perf/results/kemeny/cpu_guided_triangles/). Then every violated triangle is taken.
  Solution solve(const std::vector<signed char>& fixed, int max_rounds, double max_seconds,
                 const Enough& enough = nullptr, const Ranking* incumbent = nullptr);

  /// The least distance (doubled) a ranking can have at or above value / price_unit (0 below 0):
  /// what a bound of `value` says of distances, which lie a multiple of distance_step(o) from
  /// the sum of o_ij over i < j.
  std::uint64_t whole_distance(Scaled value) const;

  int alternatives() const;
  int columns() const;
  int rounds() const;            ///< LP solves so far
  std::int64_t cuts() const;     ///< triangle inequalities added so far (those taken out since included)
  std::int64_t ladders() const;  ///< Möbius ladder inequalities added so far (likewise)
  std::int64_t fences() const;   ///< fence inequalities added so far (likewise)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct LpBound {
  std::uint64_t bound = 0;   ///< doubled, like distances: the exact bound from the LP's prices, rounded up
  bool closed = false;       ///< no cut found violated: the bound is the LP optimum with the cuts found
  Ranking ranking;           ///< when the LP optimum is integral: an optimal ranking; else empty
  int rounds = 0;            ///< LP solves
  std::int64_t cuts = 0;     ///< triangle inequalities added
  std::int64_t ladders = 0;  ///< Möbius ladder inequalities added
  std::int64_t fences = 0;   ///< fence inequalities added
  double seconds = 0;
  std::vector<std::pair<Cut, Scaled>> priced_rows;  ///< the rows whose prices give `bound` (TriangleLp::Solution's)
};

/// The LP bound with `separate`'s cuts, in at most `max_rounds` solves and about `max_seconds`
/// (then the bound is weaker, and `closed` false). Deterministic for a deterministic separation.
LpBound lp_bound(const Counts& o, const Separation& separate, int max_rounds = 200, double max_seconds = 300);

/// The largest component auto gives branch and cut (n (n - 1) / 2 columns, n^3 / 6 checks a round).
constexpr int lp_max_alternatives = 300;
/// The largest component auto gives the LP bound alone, beside the iterated local search.
constexpr int lp_bound_max_alternatives = 1000;

}  // namespace kollective::kemeny

#endif
