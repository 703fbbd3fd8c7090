#include "kollective/algorithms/kemeny/impl/KemenyOptima.hpp"

#include <algorithm>
#include <cstdint>

#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"

namespace kollective::kemeny {

namespace {

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
    row_arcs_.reserve(lp.priced_rows.size());
    for (std::size_t r = 0; r < lp.priced_rows.size(); ++r) {
      row_arcs_.push_back(cut_arcs(lp.priced_rows[r].first));
      std::vector<int> alternatives;
      for (const auto& [from, to] : row_arcs_.back().arcs) alternatives.insert(alternatives.end(), {from, to});
      std::sort(alternatives.begin(), alternatives.end());
      alternatives.erase(std::unique(alternatives.begin(), alternatives.end()), alternatives.end());
      for (int a : alternatives) rows_of_[a].push_back(static_cast<int>(r));
      row_alternatives_.push_back(std::move(alternatives));
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
  /// placing it decides (all their alternatives but one placed, that one after them): each row's
  /// weight times its slack, the arcs it could keep that the ranking drops.
  Scaled lp_terms(int a) const {
    Scaled terms = off_lean_[a];
    for (int r : rows_of_[a]) {
      const auto& [cut, weight] = lp_.priced_rows[r];
      if (cut.is_triangle()) {  // the common case, kept cheap: two of the three placed decide it
        const Triangle& t = cut.triangle;
        if ((position_[t.i] < n_) + (position_[t.j] < n_) + (position_[t.k] < n_) != 2) continue;
        const int sum = before(t.i, t.j) + before(t.j, t.k) - before(t.i, t.k);  // in {0, 1} for a ranking
        if (t.upper ? sum == 0 : sum == 1) terms += weight;
        continue;
      }
      const CutArcs& row = row_arcs_[r];
      int placed = 0;
      for (int v : row_alternatives_[r]) placed += position_[v] < n_;
      if (placed + 1 != static_cast<int>(row_alternatives_[r].size())) continue;  // decided now
      int kept = 0;
      for (const auto& [from, to] : row.arcs) kept += before(from, to);
      terms += weight * (row.most_kept - kept);
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
  Ranking order_;                                   // candidates for each place: the known optimum's order first
  std::vector<std::uint64_t> open_cost_;            // per pair: its fixed order's cost, else the lesser one
  std::vector<std::vector<int>> successors_;        // fixed to come after each alternative
  std::vector<int> waiting_;                        // fixed predecessors not yet placed
  std::vector<std::vector<int>> rows_of_;           // priced rows of each alternative
  std::vector<CutArcs> row_arcs_;                   // each priced row's arcs
  std::vector<std::vector<int>> row_alternatives_;  // each priced row's alternatives
  std::vector<int> position_;                       // n_ while unplaced
  // Per alternative, over its pairs with the other unplaced: what placing it next adds to the
  // prefix (o[b][a]), takes from the rest (open costs), and adds to the LP's terms (off_lean).
  std::vector<std::uint64_t> added_, dropped_;
  std::vector<Scaled> off_lean_;
  Ranking ranking_;
  std::uint64_t prefix_ = 0, rest_ = 0;
  Scaled used_ = 0;
  std::int64_t steps_ = 0;
};

}  // namespace

void list_optima(const Counts& o, TriangleLp& lp, const std::vector<signed char>& known, SearchResult& result,
                 std::size_t limit, double max_seconds) {
  // Enough once the bound reaches the optimum: prices that prove it bound the listing.
  const TriangleLp::Solution root =
      lp.solve(known, root_max_rounds, max_seconds, [&](const std::vector<double>&) { return result.distance; });
  if (root.status == TriangleLp::Status::infeasible) return;  // never for the root; keep the search's one
  std::vector<signed char> fixed = known;
  for (int c = 0; c < lp.columns(); ++c) {
    if (fixed[c] < 0 && lp.whole_distance(root.dual_value + root.penalty[c]) > result.distance) fixed[c] = root.lean[c];
  }
  OptimaListing listing(o, root, fixed, result.optima.front(), limit);
  listing.run();
  if (listing.rankings.empty()) return;  // out of steps before the first: keep the search's one
  result.optima = std::move(listing.rankings);
  std::sort(result.optima.begin(), result.optima.end());
  result.count = listing.count;
  result.count_exact = listing.complete;
}

}  // namespace kollective::kemeny
