#include "algorithms/kemeny/KemenySearch.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "algorithms/kemeny/KemenyHeuristics.hpp"
#include "algorithms/kemeny/KemenyMetrics.hpp"
#include "core/Error.hpp"
#include "core/Timer.hpp"

namespace kollective::kemeny {

namespace {

/// LP solves one node may take before it counts as stopped (in practice a node needs tens).
constexpr int node_max_rounds = 1000;

struct Node {
  std::vector<signed char> fixed;  // by pair column: -1 free, else the pair's value
  std::uint64_t bound = 0;         // a lower bound on every ranking in the node (its parent's)
  int bound_rows = -1;             // the row weights in the proof that give `bound` (-1: none)
  int proof = 0;                   // its node in the proof
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
  std::vector<int> position(n);
  for (int p = 0; p < n; ++p) position[ranking[p]] = p;
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

/// The free pair (i < j) whose LP value is nearest 1/2; i = -1 when every free one is integral.
struct Pair {
  int i = -1, j = -1;
};
Pair most_fractional(const std::vector<signed char>& fixed, const std::vector<double>& x, int n) {
  Pair chosen;
  double nearest = 0.5 - 1e-9;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double distance_to_half = std::fabs(x[static_cast<std::size_t>(i) * n + j] - 0.5);
      if (fixed[pair_column(i, j, n)] < 0 && distance_to_half < nearest) nearest = distance_to_half, chosen = {i, j};
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

/// Placements a listing may take: about a second at n = 100, and alike on every machine.
constexpr std::int64_t listing_max_steps = 10'000'000;

/// The rankings of the distance of a known optimum: one alternative placed at a time (after every
/// one it is fixed behind; candidates in the optimum's order, so that it comes first), a prefix
/// pruned by two lower bounds on the distance of every ranking that extends it:
/// - its cost, plus the least cost of each pair still undecided (its fixed order's, if fixed);
/// - the LP's split of the distance (TriangleLp::Solution): dual_value, plus the penalties of the
///   decided pairs off their lean, plus the weights of the decided rows left slack.
/// What placing an alternative next would add to either bound from its pairs with the unplaced is
/// kept per alternative and updated as each one is placed, so a candidate costs its rows only.
/// Lists `limit` and counts on while steps remain.
class OptimaListing {
 public:
  OptimaListing(const Counts& o, const TriangleLp::Solution& lp, const std::vector<signed char>& fixed,
                const Ranking& optimum, std::size_t limit)
      : o_(o),
        lp_(lp),
        n_(o.alternatives),
        target_(distance(o, optimum)),
        room_(Scaled{target_} * price_unit - lp.dual_value),
        limit_(limit),
        order_(optimum),
        open_cost_(n_ * n_),
        successors_(n_),
        waiting_(n_),
        rows_of_(n_),
        position_(n_, n_),
        added_(n_),
        dropped_(n_),
        off_lean_(n_) {
    for (int i = 0; i < n_; ++i) {
      for (int j = i + 1; j < n_; ++j) {
        const signed char value = fixed[pair_column(i, j, n_)];  // 1: i before j
        const std::uint64_t i_first = o.at(j, i), j_first = o.at(i, j);
        const std::uint64_t cost = value < 0 ? std::min(i_first, j_first) : value == 1 ? i_first : j_first;
        open_cost_[i * n_ + j] = open_cost_[j * n_ + i] = cost;
        rest_ += cost;
        if (value >= 0) {
          successors_[value == 1 ? i : j].push_back(value == 1 ? j : i);
          ++waiting_[value == 1 ? j : i];
        }
      }
    }
    for (int a = 0; a < n_; ++a) {
      for (int b = 0; b < n_; ++b) {
        if (b == a) continue;
        added_[a] += o.at(b, a);
        dropped_[a] += open_cost_[a * n_ + b];
        off_lean_[a] += off_lean(a, b);
      }
    }
    for (std::size_t r = 0; r < lp.priced_rows.size(); ++r) {
      const Triangle& t = lp.priced_rows[r].first;
      for (int a : {t.i, t.j, t.k}) rows_of_[a].push_back(static_cast<int>(r));
    }
  }

  void run() { place(0); }

  std::vector<Ranking> rankings;
  std::uint64_t count = 0;
  bool complete = true;  ///< every ranking was counted

 private:
  /// Whether a is before b once a is placed at `position_` (the unplaced come after every placed one).
  bool before(int a, int b) const { return position_[a] < position_[b]; }

  /// The LP's penalty for a before b, where its lean puts b first (else 0).
  Scaled off_lean(int a, int b) const {
    const int c = pair_column(std::min(a, b), std::max(a, b), n_);
    return (a < b ? 1 : 0) != lp_.lean[c] ? lp_.penalty[c] : 0;
  }

  /// What placing a next adds to the LP's terms: its pairs with the unplaced, and the rows that
  /// placing it decides (two of their three alternatives placed).
  Scaled lp_terms(int a) const {
    Scaled terms = off_lean_[a];
    for (int r : rows_of_[a]) {
      const auto& [t, weight] = lp_.priced_rows[r];
      const int placed = (position_[t.i] < n_) + (position_[t.j] < n_) + (position_[t.k] < n_);
      if (placed != 2) continue;  // a is the second one placed: the row is decided now
      const int sum = before(t.i, t.j) + before(t.j, t.k) - before(t.i, t.k);  // in {0, 1} for a ranking
      const bool slack = t.upper ? sum == 0 : sum == 1;
      if (slack) terms += weight;
    }
    return terms;
  }

  /// a leaves the unplaced: the others' pairs with the unplaced lose their pair with a (undone
  /// exactly by adding back: every sum is an integer).
  void take_out(int a) {
    for (int b = 0; b < n_; ++b) {
      if (position_[b] < n_) continue;
      added_[b] -= o_.at(a, b);
      dropped_[b] -= open_cost_[b * n_ + a];
      off_lean_[b] -= off_lean(b, a);
    }
  }
  void put_back(int a) {
    for (int b = 0; b < n_; ++b) {
      if (position_[b] < n_) continue;
      added_[b] += o_.at(a, b);
      dropped_[b] += open_cost_[b * n_ + a];
      off_lean_[b] += off_lean(b, a);
    }
  }

  void place(int depth) {
    if (depth == n_) {
      if (prefix_ != target_) return;
      if (rankings.size() < limit_) rankings.push_back(ranking_);
      ++count;
      return;
    }
    for (int a : order_) {
      if (!complete) return;
      if (position_[a] < n_ || waiting_[a] > 0) continue;
      if (++steps_ > listing_max_steps) {
        complete = false;
        return;
      }
      const std::uint64_t added = added_[a], dropped = dropped_[a];  // a goes before every unplaced b
      if (prefix_ + added + rest_ - dropped > target_) continue;
      position_[a] = depth;
      const Scaled terms = lp_terms(a);
      if (used_ + terms <= room_) {
        ranking_.push_back(a);
        prefix_ += added, rest_ -= dropped, used_ += terms;
        for (int b : successors_[a]) --waiting_[b];
        take_out(a);
        place(depth + 1);
        put_back(a);
        for (int b : successors_[a]) ++waiting_[b];
        prefix_ -= added, rest_ += dropped, used_ -= terms;
        ranking_.pop_back();
      }
      position_[a] = n_;
    }
  }

  const Counts& o_;
  const TriangleLp::Solution& lp_;
  int n_;
  std::uint64_t target_;
  Scaled room_;  // for the LP's terms above dual_value
  std::size_t limit_;
  Ranking order_;                             // candidates for each place: the known optimum's order first
  std::vector<std::uint64_t> open_cost_;      // per pair: its fixed order's cost, else the lesser one
  std::vector<std::vector<int>> successors_;  // fixed to come after each alternative
  std::vector<int> waiting_;                  // fixed predecessors not yet placed
  std::vector<std::vector<int>> rows_of_;     // priced rows of each alternative
  std::vector<int> position_;                 // n_ while unplaced
  // Per alternative, over its pairs with the other unplaced: what placing it next adds to the
  // prefix (o[b][a]), takes from the rest (open costs), and adds to the LP's terms (off_lean).
  std::vector<std::uint64_t> added_, dropped_;
  std::vector<Scaled> off_lean_;
  Ranking ranking_;
  std::uint64_t prefix_ = 0, rest_ = 0;
  Scaled used_ = 0;
  std::int64_t steps_ = 0;
};

/// Replaces the one optimal ranking of a proven search by a listing of the optima, with the root
/// LP solved again with every cut the search found: its reduced costs fix the pairs that no
/// optimum can flip, and its prices bound the rest of the listing.
void list_optima(const Counts& o, TriangleLp& lp, const std::vector<signed char>& known, SearchResult& result,
                 std::size_t limit, double max_seconds) {
  // Enough once the bound reaches the optimum: prices that prove it bound the listing.
  const TriangleLp::Solution root =
      lp.solve(known, node_max_rounds, max_seconds, [&](const std::vector<double>&) { return result.distance; });
  if (root.status == TriangleLp::Status::infeasible) return;  // never for the root; keep the search's one
  std::vector<signed char> fixed = known;
  for (int c = 0; c < lp.columns(); ++c) {
    if (fixed[c] < 0 && whole_distance(root.dual_value + root.penalty[c]) > result.distance) fixed[c] = root.lean[c];
  }
  OptimaListing listing(o, root, fixed, result.optima.front(), limit);
  listing.run();
  if (listing.rankings.empty()) return;  // out of steps before the first: keep the search's one
  result.optima = std::move(listing.rankings);
  std::sort(result.optima.begin(), result.optima.end());
  result.count = listing.count;
  result.count_exact = listing.complete;
}

}  // namespace

SearchResult branch_and_cut(const Counts& o, const TriangleSeparation& separate, const Ranking& start, int list_limit,
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
  while (!stack.empty() && timer.seconds() < max_seconds) {
    Node node = std::move(stack.back());
    stack.pop_back();
    if (node.bound >= result.distance) {
      proof.close(node.proof, ProofNode::Kind::bound, node.bound_rows);
      continue;
    }
    // No more cuts once the bound closes the node (each round's point, rounded and improved, may
    // lower the best distance).
    const TriangleLp::Solution lp_point =
        lp.solve(node.fixed, node_max_rounds, max_seconds - timer.seconds(), [&](const std::vector<double>& x) {
          offer(local_search(o, rounded_ranking(x, n)));
          return result.distance;
        });
    ++result.nodes;
    auto split = [&](const std::vector<signed char>& fixed, int c, signed char nearer) {
      for (const signed char side : {static_cast<signed char>(1 - nearer), nearer}) {  // the nearer one first
        Node child{fixed, node.bound, node.bound_rows, proof.add_node()};
        child.fixed[c] = side;
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
        split(node.fixed, static_cast<int>(free - node.fixed.begin()), 1);
      }
      continue;
    }
    int lp_rows = -1;  // this LP's row weights in the proof, once kept
    if (lp_point.bound > node.bound) node.bound = lp_point.bound, node.bound_rows = proof.rows_of(lp_point, lp_rows);
    if (lp_point.status == TriangleLp::Status::open) {  // stopped by the time limit: left open
      stack.push_back(std::move(node));
      break;
    }
    offer(lp_point.ranking.empty() ? local_search(o, rounded_ranking(lp_point.x, n)) : lp_point.ranking);
    if (node.bound >= result.distance) {
      proof.close(node.proof, ProofNode::Kind::bound, node.bound_rows);
      continue;
    }
    // Pairs whose other value alone would lift the bound to the best distance.
    std::vector<signed char> fixed = node.fixed;
    for (int c = 0; c < lp.columns(); ++c) {
      if (fixed[c] < 0 && whole_distance(lp_point.dual_value + lp_point.penalty[c]) >= result.distance) {
        fixed[c] = lp_point.lean[c];
        proof.fix_at_lean(node.proof, c, fixed[c], proof.rows_of(lp_point, lp_rows));
      }
    }
    // The most fractional pair; where the point is a ranking that the bound does not prove (the
    // solver's prices fall short by rounding), the pair its prices charge least.
    Pair pair = most_fractional(fixed, lp_point.x, n);
    if (pair.i < 0) pair = least_penalty(fixed, lp_point.penalty, n);
    if (pair.i < 0) {  // every pair fixed: the node holds this one ranking, if any
      const Ranking only = ranking_of(fixed, n);
      if (!only.empty()) offer(only);
      proof.close(node.proof, ProofNode::Kind::single, lp_rows);
      continue;
    }
    const double value = lp_point.x[static_cast<std::size_t>(pair.i) * n + pair.j];
    split(fixed, pair_column(pair.i, pair.j, n), value >= 0.5 ? 1 : 0);
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
  result.seconds = timer.seconds();
  return result;
}

}  // namespace kollective::kemeny
