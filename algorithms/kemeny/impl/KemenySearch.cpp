#include "kollective/algorithms/kemeny/impl/KemenySearch.hpp"
#include "kollective/core/Interrupt.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyOptima.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Timer.hpp"

namespace kollective::kemeny {

namespace {

struct Node {
  std::vector<signed char> fixed;  // by pair column: -1 free, else the pair's value
  std::uint64_t bound = 0;         // a lower bound on every ranking in the node (its parent's)
  int bound_rows = -1;             // the row weights in the proof that give `bound` (-1: none)
  int proof = 0;                   // its node in the proof
  int branched = -1;               // the column its parent split on (-1: the root)
  double parent_value = 0;         // the parent's LP value (dual, in distance units)
  double change = 0;               // how far the split moved the column from the parent's LP value
};

/// Per column and side, the mean rise of the LP bound per unit the split moved the column
/// (pseudocosts): where a split is expected to lift both children's bounds most.
class Pseudocosts {
 public:
  explicit Pseudocosts(int columns) : sum_(2 * columns, 0.0), count_(2 * columns, 0) {}
  void learn(int column, int side, double rise_per_unit) {
    sum_[2 * column + side] += rise_per_unit;
    ++count_[2 * column + side];
    total_ += rise_per_unit;
    ++seen_;
  }
  /// Expected rise of the bound when side's split moves the column by `change`.
  double expected(int column, int side, double change) const {
    const int k = 2 * column + side;
    const double per_unit = count_[k] > 0 ? sum_[k] / count_[k] : seen_ > 0 ? total_ / seen_ : 1.0;
    return per_unit * change;
  }

 private:
  std::vector<double> sum_;
  std::vector<int> count_;
  double total_ = 0;
  std::int64_t seen_ = 0;
};

/// Builds a search's Proof as its nodes close; does nothing unless asked.
class ProofRecorder {
 public:
  ProofRecorder(bool on, Proof& proof) : on_(on), proof_(proof) {
    if (on_) proof_.nodes.emplace_back();
  }
  /// A new node, for a child (0 when off).
  int add_node() {
    if (!on_) return 0;
    proof_.nodes.emplace_back();
    return static_cast<int>(proof_.nodes.size()) - 1;
  }
  /// Keeps an LP's row weights once; `kept` caches the index (-1: not yet).
  int rows_of(const TriangleLp::Solution& lp, int& kept) {
    if (!on_ || kept >= 0) return kept;
    proof_.rows.push_back(lp.priced_rows);
    return kept = static_cast<int>(proof_.rows.size()) - 1;
  }
  void close(int node, ProofNode::Kind kind, int rows = -1) {
    if (!on_) return;
    proof_.nodes[node].kind = kind;
    proof_.nodes[node].rows = rows;
  }
  /// Columns fixed by reduced cost at `node`, bounded by `rows`.
  void fix_at_lean(int node, int column, signed char value, int rows) {
    if (!on_) return;
    proof_.nodes[node].fixed_at_lean.emplace_back(column, value);
    proof_.nodes[node].rows = rows;
  }
  void branch(int node, int column, int child, signed char value) {
    if (!on_) return;
    proof_.nodes[node].kind = ProofNode::Kind::branch;
    proof_.nodes[node].column = column;
    proof_.nodes[node].children[value] = child;
  }

 private:
  bool on_;
  Proof& proof_;
};

/// A ranking near a fractional LP point: by how many alternatives each is placed before.
Ranking rounded_ranking(const std::vector<double>& x, int n) {
  std::vector<double> score(n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double before = x[static_cast<std::size_t>(i) * n + j];
      score[i] += before;
      score[j] += 1 - before;
    }
  }
  Ranking ranking(n);
  std::iota(ranking.begin(), ranking.end(), 0);
  std::stable_sort(ranking.begin(), ranking.end(), [&](int a, int b) { return score[a] > score[b]; });
  return ranking;
}

/// The pair values of a ranking, by column.
std::vector<signed char> pair_values(const Ranking& ranking) {
  const int n = static_cast<int>(ranking.size());
  const std::vector<int> position = places(ranking);
  std::vector<signed char> values(static_cast<std::size_t>(n) * (n - 1) / 2);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) values[pair_column(i, j, n)] = position[i] < position[j] ? 1 : 0;
  }
  return values;
}

/// Whether the fixed pairs (by column: -1 free, 1: i before j, 0: j before i) hold a directed
/// cycle, so that no ranking keeps them (Kahn's algorithm).
bool holds_cycle(const std::vector<signed char>& fixed, int n) {
  std::vector<std::vector<int>> after(n);
  std::vector<int> before_count(n, 0);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const signed char value = fixed[pair_column(i, j, n)];
      if (value < 0) continue;
      after[value == 1 ? i : j].push_back(value == 1 ? j : i);
      ++before_count[value == 1 ? j : i];
    }
  }
  std::vector<int> ready;
  for (int a = 0; a < n; ++a) {
    if (before_count[a] == 0) ready.push_back(a);
  }
  int placed = 0;
  while (!ready.empty()) {
    const int a = ready.back();
    ready.pop_back();
    ++placed;
    for (int b : after[a]) {
      if (--before_count[b] == 0) ready.push_back(b);
    }
  }
  return placed < n;
}

/// The ranking whose pair values are `values` (every pair fixed), or empty where they are not
/// transitive.
Ranking ranking_of(const std::vector<signed char>& values, int n) {
  std::vector<int> after(n, 0);  // alternatives placed after each one
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) ++after[values[pair_column(i, j, n)] == 1 ? i : j];
  }
  Ranking ranking(n);
  std::iota(ranking.begin(), ranking.end(), 0);
  std::sort(ranking.begin(), ranking.end(), [&](int a, int b) { return after[a] > after[b]; });
  return pair_values(ranking) == values ? ranking : Ranking{};
}

/// A pair i < j; i = -1 for none.
struct Pair {
  int i = -1, j = -1;
};

/// The fractional free pair whose split the pseudocosts expect to lift both children most.
Pair best_expected(const std::vector<signed char>& fixed, const std::vector<double>& x, int n,
                   const Pseudocosts& costs) {
  Pair chosen;
  double best = -1;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const int c = pair_column(i, j, n);
      const double value = x[static_cast<std::size_t>(i) * n + j];
      if (fixed[c] >= 0 || value < 1e-9 || value > 1 - 1e-9) continue;
      const double down = std::max(1e-6, costs.expected(c, 0, value));
      const double up = std::max(1e-6, costs.expected(c, 1, 1 - value));
      if (down * up > best) best = down * up, chosen = {i, j};
    }
  }
  return chosen;
}

/// The free pair whose other order the prices charge least; i = -1 when every pair is fixed. For a
/// node whose LP point is a ranking that its bound, rounded by the solver, does not quite prove.
Pair least_penalty(const std::vector<signed char>& fixed, const std::vector<Scaled>& penalty, int n) {
  Pair chosen;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const int c = pair_column(i, j, n);
      if (fixed[c] < 0 && (chosen.i < 0 || penalty[c] < penalty[pair_column(chosen.i, chosen.j, n)])) chosen = {i, j};
    }
  }
  return chosen;
}

}  // namespace

SearchResult branch_and_cut(const Counts& o, const Separation& separate, const Ranking& start, int list_limit,
                            double max_seconds, std::vector<signed char> known, bool record_proof) {
  WallTimer timer;
  const int n = o.alternatives;
  const std::size_t limit = static_cast<std::size_t>(std::max(1, list_limit));
  TriangleLp lp(o, separate);
  if (known.empty()) known.assign(lp.columns(), -1);
  if (static_cast<int>(known.size()) != lp.columns())
    fail("Kemeny branch and cut: ", known.size(), " known pairs for ", lp.columns(), " pair columns (internal error)");
  SearchResult result;
  Ranking best = start;
  result.distance = distance(o, start);
  auto offer = [&](const Ranking& ranking) {
    const std::uint64_t d = distance(o, ranking);
    if (d < result.distance) result.distance = d, best = ranking;
  };
  ProofRecorder proof(record_proof, result.proof);
  // A node is closed once its bound reaches the best distance: it holds no better ranking.
  std::vector<Node> stack = {{known, 0, -1, 0}};
  Pseudocosts costs(lp.columns());
  while (!stack.empty() && timer.seconds() < max_seconds) {
    kollective::Impl::interruption_point();
    Node node = std::move(stack.back());
    stack.pop_back();
    if (node.bound >= result.distance) {
      proof.close(node.proof, ProofNode::Kind::bound, node.bound_rows);
      continue;
    }
    // No more cuts once the bound closes the node (each round's point, rounded and improved, may
    // lower the best distance). The root's cuts may be guided by the best ranking.
    const bool root = result.nodes == 0;
    const TriangleLp::Solution lp_point = lp.solve(
        node.fixed, root ? root_max_rounds : node_max_rounds, max_seconds - timer.seconds(),
        [&](const std::vector<double>& x) {
          offer(local_search(o, rounded_ranking(x, n)));
          return result.distance;
        },
        root && separate.guide_root ? &best : nullptr);
    ++result.nodes;
    const double lp_value = static_cast<double>(lp_point.dual_value) / static_cast<double>(price_unit);
    if (node.branched >= 0 && lp_point.status != TriangleLp::Status::infeasible && node.change > 1e-9)
      costs.learn(node.branched, node.fixed[node.branched], std::max(0.0, lp_value - node.parent_value) / node.change);
    // Splits on column c, whose LP value is `value` (the nearer side first, for the next dive).
    auto split = [&](const std::vector<signed char>& fixed, int c, signed char nearer, double value) {
      for (const signed char side : {static_cast<signed char>(1 - nearer), nearer}) {
        Node child{fixed, node.bound, node.bound_rows, proof.add_node()};
        child.fixed[c] = side;
        child.branched = c;
        child.parent_value = lp_value;
        child.change = side == 1 ? 1 - value : value;
        proof.branch(node.proof, c, child.proof, side);
        stack.push_back(std::move(child));
      }
    };
    if (lp_point.status == TriangleLp::Status::infeasible) {
      // Trusted where the fixed pairs hold a cycle; else the solver's tolerances misjudged a node
      // that holds rankings, and it is split on its first free pair instead.
      const auto free = std::find(node.fixed.begin(), node.fixed.end(), -1);
      if (holds_cycle(node.fixed, n)) {
        proof.close(node.proof, ProofNode::Kind::cycle);
      } else if (free == node.fixed.end()) {
        offer(ranking_of(node.fixed, n));
        proof.close(node.proof, ProofNode::Kind::single);
      } else {
        split(node.fixed, static_cast<int>(free - node.fixed.begin()), 1, 0.0);
      }
      continue;
    }
    int lp_rows = -1;  // this LP's row weights in the proof, once kept
    if (lp_point.bound > node.bound) node.bound = lp_point.bound, node.bound_rows = proof.rows_of(lp_point, lp_rows);
    if (lp_point.status == TriangleLp::Status::open) {  // stopped by the time limit: left open
      stack.push_back(std::move(node));
      break;
    }
    if (lp_point.status != TriangleLp::Status::enough)  // else `enough` has offered its point
      offer(lp_point.ranking.empty() ? local_search(o, rounded_ranking(lp_point.x, n)) : lp_point.ranking);
    if (node.bound >= result.distance) {
      proof.close(node.proof, ProofNode::Kind::bound, node.bound_rows);
      continue;
    }
    // Pairs whose other value alone would lift the bound to the best distance.
    std::vector<signed char> fixed = node.fixed;
    for (int c = 0; c < lp.columns(); ++c) {
      if (fixed[c] < 0 && lp.whole_distance(lp_point.dual_value + lp_point.penalty[c]) >= result.distance) {
        fixed[c] = lp_point.lean[c];
        proof.fix_at_lean(node.proof, c, fixed[c], proof.rows_of(lp_point, lp_rows));
      }
    }
    // The fractional pair of the best expected split; where the point is a ranking that the bound
    // does not prove (the solver's prices fall short by rounding), the pair its prices charge least.
    Pair pair = best_expected(fixed, lp_point.x, n, costs);
    if (pair.i < 0) pair = least_penalty(fixed, lp_point.penalty, n);
    if (pair.i < 0) {  // every pair fixed: the node holds this one ranking, if any
      const Ranking only = ranking_of(fixed, n);
      if (!only.empty()) offer(only);
      proof.close(node.proof, ProofNode::Kind::single, lp_rows);
      continue;
    }
    const double value = lp_point.x[static_cast<std::size_t>(pair.i) * n + pair.j];
    split(fixed, pair_column(pair.i, pair.j, n), value >= 0.5 ? 1 : 0, value);
  }
  result.bound = result.distance;
  for (const Node& node : stack) result.bound = std::min(result.bound, node.bound);
  result.optima = {best};
  result.count = 1;
  // Nodes left when the time ran out, each bounded at the best distance where the search is proven.
  for (const Node& node : stack) proof.close(node.proof, ProofNode::Kind::bound, node.bound_rows);
  if (!result.proven()) result.proof = {};
  if (result.proven() && list_limit > 0) list_optima(o, lp, known, result, limit, max_seconds - timer.seconds());
  result.rounds = lp.rounds();
  result.cuts = lp.cuts();
  result.ladders = lp.ladders();
  result.fences = lp.fences();
  result.seconds = timer.seconds();
  return result;
}

}  // namespace kollective::kemeny
