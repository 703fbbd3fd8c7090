#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_SEARCH_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_SEARCH_HPP

/// \file KemenySearch.hpp
/// Exact Kemeny for components too large for the subset DP: branch and cut on the LP relaxation
/// with triangle cuts and, where the separation asks, Möbius ladders and fences at the root
/// (KemenyLP.hpp).
/// Depth first over fixed pairs; every node's LP adds the triangles it violates (cuts valid
/// everywhere, kept for later nodes while they bind or hold a price), is pruned when its bound
/// exceeds the best distance, fixes the pairs whose reduced cost alone would exceed it, and branches
/// on the fractional pair whose split is expected to raise both children's bounds most
/// (pseudocosts: the mean rise per unit of change each pair's earlier splits gave, product of the
/// two sides; where the point is a ranking whose exact bound, from the solver's rounded prices,
/// falls short of its distance: on the free pair its prices charge least, so that no valid input
/// stops the search). The LP point of each round, rounded to a ranking and improved by local
/// search, may lower the best distance; a node's rounds stop as soon as its bound prunes it.
///
/// Then the optimal rankings are listed: the root LP, with every cut found, fixes the pairs whose
/// reduced cost alone would exceed the optimum, and a depth-first placement of the alternatives
/// lists the rankings of the optimum that keep them (up to `list_limit`), counting on for a fixed
/// number of steps: the count is exact when the placement ended. With `list_limit` 0, the one
/// optimum found is kept (count 1, not exact).

#include <cstdint>
#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// A node of the tree that proves a search's optimum (Proof).
struct ProofNode {
  enum class Kind {
    bound,   ///< its LP's prices (`rows`) bound every ranking in it at the optimum or above
    cycle,   ///< its fixed pairs contain a directed cycle: it holds no ranking (the LP was infeasible)
    single,  ///< every pair fixed (with `fixed_at_lean`): it holds at most one ranking, which was offered
    branch,  ///< split on `column`: children[v] has the column at v
  };
  Kind kind = Kind::bound;
  int rows = -1;  ///< the row weights (Proof::rows) of `bound`, and of `fixed_at_lean`; -1: none (all 0)
  /// Columns fixed by reduced cost before splitting, with the value kept: each other value is bounded
  /// at the optimum or above by `rows` with the node's fixed pairs and that column at it.
  std::vector<std::pair<int, signed char>> fixed_at_lean;
  int column = -1;
  int children[2] = {-1, -1};
};

/// The tree of a proven search, over the LP's pair columns from the root's fixed pairs: its leaves
/// cover every ranking that keeps them. A checker re-derives each bound from the input and the
/// row weights alone (KemenyCertificate.hpp).
struct Proof {
  std::vector<ProofNode> nodes;  ///< nodes[0] is the root
  std::vector<std::vector<std::pair<Cut, Scaled>>> rows;
};

struct SearchResult {
  std::vector<Ranking> optima;  ///< rankings of `distance`, sorted, at most list_limit
  std::uint64_t count = 1;      ///< rankings of `distance` found: all of them when count_exact
  std::uint64_t distance = 0;   ///< the best distance found (doubled)
  std::uint64_t bound = 0;      ///< a lower bound on the optimum: equals distance when proven
  bool count_exact = false;     ///< proven, and every ranking of the optimum was counted
  std::int64_t nodes = 0;       ///< LP nodes solved
  int rounds = 0;               ///< LP solves
  std::int64_t cuts = 0;        ///< triangle inequalities added
  std::int64_t ladders = 0;     ///< Möbius ladder inequalities added
  std::int64_t fences = 0;      ///< fence inequalities added
  double seconds = 0;
  bool proven() const { return distance == bound; }
  Proof proof;  ///< where asked (record_proof) and proven
};

/// LP solves the root (and the listing's solve) may take before it counts as stopped (in practice
/// tens).
constexpr int root_max_rounds = 1000;
/// LP solves a node below the root may take before it branches, the last round's violated cuts
/// kept for the next node. Cutting until none is violated spent most solves on the few last
/// rounds of some nodes: with 8, random tournaments of 40 were proven 1.3-2.1x faster and those of
/// 36 within 5% either way (record perf/results/kemeny/cpu_node_rounds.md).
constexpr int node_max_rounds = 8;

/// Branch and cut from the ranking `start`, for at most about `max_seconds` (then the best
/// ranking with its certified bound), with the pairs `known` (by LP column, as pair_columns
/// gives them; empty: none) fixed from the root: they must hold in every optimal ranking, so that
/// the optima and their count stay whole. With `record_proof`, a proven result carries its Proof.
/// Deterministic for a deterministic separation.
SearchResult branch_and_cut(const Counts& o, const Separation& separate, const Ranking& start, int list_limit,
                            double max_seconds, std::vector<signed char> known = {}, bool record_proof = false);

}  // namespace kollective::kemeny

#endif
