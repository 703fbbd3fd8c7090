#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/core/Interrupt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <tuple>

#include "kollective/algorithms/kemeny/impl/KemenyFences.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLadders.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Timer.hpp"

#ifdef KOLLECTIVE_HAVE_CLP
#include <ClpDualRowSteepest.hpp>
#include <ClpSimplex.hpp>
#endif

namespace kollective::kemeny {

CutArcs cut_arcs(const Cut& cut) {
  const Triangle& t = cut.triangle;
  if (cut.is_triangle())
    return t.upper ? CutArcs{{{t.i, t.j}, {t.j, t.k}, {t.k, t.i}}, 2}
                   : CutArcs{{{t.i, t.k}, {t.k, t.j}, {t.j, t.i}}, 2};
  CutArcs out;
  if (cut.fence) {
    const auto& pales = cut.fence->pales;
    const int t = static_cast<int>(pales.size());
    out.arcs.assign(pales.begin(), pales.end());
    for (int i = 0; i < t; ++i) {
      for (int j = 0; j < t; ++j) {
        if (i != j) out.arcs.emplace_back(pales[j].second, pales[i].first);
      }
    }
    out.most_kept = t * t - t + 1;
    return out;
  }
  const auto& cycles = cut.ladder->cycles;
  for (const auto& cycle : cycles) {
    for (std::size_t p = 0; p < cycle.size(); ++p) {
      const std::pair<int, int> arc(cycle[p], cycle[(p + 1) % cycle.size()]);
      if (std::find(out.arcs.begin(), out.arcs.end(), arc) == out.arcs.end()) out.arcs.push_back(arc);
    }
  }
  out.most_kept = static_cast<int>(out.arcs.size()) - static_cast<int>(cycles.size() + 1) / 2;
  return out;
}

std::int64_t distance_step(const Counts& o) {
  std::int64_t step = 0;
  for (int i = 0; i < o.alternatives; ++i) {
    for (int j = i + 1; j < o.alternatives; ++j)
      step = std::gcd(step, std::int64_t{o.at(j, i)} - std::int64_t{o.at(i, j)});
  }
  return step == 0 ? 1 : step;
}

namespace {

/// The LP's cost of x_ij by column: o[j][i] - o[i][j] (placing i before j loses o[j][i]).
std::vector<std::int64_t> pair_costs(const Counts& o) {
  const int n = o.alternatives;
  std::vector<std::int64_t> cost(static_cast<std::size_t>(n) * (n - 1) / 2);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) cost[pair_column(i, j, n)] = std::int64_t{o.at(j, i)} - std::int64_t{o.at(i, j)};
  }
  return cost;
}

/// Triangles in the order of their fields, to sort and merge them.
auto order_key(const Triangle& t) { return std::tie(t.i, t.j, t.k, t.upper); }

/// The greedy dual of triangles_priced_at and greedy_dual_bound, over the pairs' costs
/// (pair_costs), lifting `depth` levels: `margin(p, q)` is what the pair placed p < q has left.
class GreedyDual {
 public:
  GreedyDual(const std::vector<std::int64_t>& cost, const Ranking& ranking, int depth)
      : n_(static_cast<int>(ranking.size())),
        depth_(depth),
        ranking_(ranking),
        margins_(static_cast<std::size_t>(n_) * n_, 0) {
    if (cost.size() != static_cast<std::size_t>(n_) * (n_ - 1) / 2)
      fail("Kemeny greedy dual: a ranking of ", n_, " alternatives for ", cost.size(), " pairs (internal error)");
    for (int p = 0; p < n_; ++p) {
      for (int q = p + 1; q < n_; ++q) {  // the arc a -> b kept: its votes for less against, -cost(x_ab = 1)
        const int a = ranking[p], b = ranking[q];
        margin(p, q) = a < b ? -cost[pair_column(a, b, n_)] : cost[pair_column(b, a, n_)];
      }
    }
  }

  /// The triangles priced, each once, with their weights (in the counts' doubled units).
  std::vector<std::pair<Triangle, std::int64_t>> priced(double max_seconds) {
    WallTimer timer;
    for (int span = 2; span < n_ && timer.seconds() < max_seconds; ++span) {
      for (int p = 0; p + span < n_; ++p) {
        const int q = p + span;
        if (margin(p, q) < 0) margin(p, q) += lift(p, q, -margin(p, q), depth_);
      }
    }
    // One entry a triangle, its weights summed.
    std::sort(priced_.begin(), priced_.end(),
              [](const auto& a, const auto& b) { return order_key(a.first) < order_key(b.first); });
    std::vector<std::pair<Triangle, std::int64_t>> merged;
    for (const auto& [t, weight] : priced_) {
      if (!merged.empty() && order_key(merged.back().first) == order_key(t)) {
        merged.back().second += weight;
      } else {
        merged.emplace_back(t, weight);
      }
    }
    return merged;
  }

  /// The sum of the margins left below 0.
  std::int64_t shortfall() const {
    std::int64_t total = 0;
    for (const std::int64_t margin : margins_) total += std::max<std::int64_t>(0, -margin);
    return total;
  }

 private:
  std::int64_t& margin(int p, int q) { return margins_[static_cast<std::size_t>(p) * n_ + q]; }
  std::int64_t bottleneck(int p, int m, int q) { return std::min(margin(p, m), margin(m, q)); }

  /// Prices the triangle of places p < m < q by `weight`, from its short pairs' margins (the
  /// caller adds it to the long pair's).
  void price(int p, int m, int q, std::int64_t weight) {
    margin(p, m) -= weight, margin(m, q) -= weight;
    int a[3] = {ranking_[p], ranking_[m], ranking_[q]};                     // the dicycle a0 -> a1 -> a2 -> a0
    const bool upper = (a[0] < a[1]) + (a[1] < a[2]) + (a[2] < a[0]) == 2;  // i -> j -> k -> i, rotated
    std::sort(a, a + 3);
    priced_.emplace_back(Triangle{a[0], a[1], a[2], upper}, weight);
  }

  /// Raises the margin of the pair placed p < q by up to `need` from its middles (most margin
  /// left first), then, `depth` levels deep, by lifting their short pairs first; returns the rise.
  std::int64_t lift(int p, int q, std::int64_t need, int depth) {
    std::vector<int> middles(q - p - 1);
    std::iota(middles.begin(), middles.end(), p + 1);
    std::sort(middles.begin(), middles.end(), [&](int a, int b) { return bottleneck(p, a, q) > bottleneck(p, b, q); });
    std::int64_t raised = 0;
    for (const int m : middles) {
      const std::int64_t weight = std::min(need - raised, bottleneck(p, m, q));
      if (weight <= 0) break;
      price(p, m, q, weight);
      raised += weight;
    }
    for (int m = p + 1; depth > 0 && m < q && raised < need; ++m) {
      const std::int64_t wanted = need - raised;
      for (const auto& [x, y] : {std::pair<int, int>{p, m}, std::pair<int, int>{m, q}}) {
        if (margin(x, y) < wanted && y - x >= 2)
          margin(x, y) += lift(x, y, wanted - std::max<std::int64_t>(0, margin(x, y)), depth - 1);
      }
      const std::int64_t weight = std::min(wanted, bottleneck(p, m, q));
      if (weight > 0) price(p, m, q, weight), raised += weight;
    }
    return raised;
  }

  int n_, depth_;
  const Ranking& ranking_;
  std::vector<std::int64_t> margins_;
  std::vector<std::pair<Triangle, std::int64_t>> priced_;
};

/// triangles_priced_at over the pairs' costs.
std::vector<Triangle> priced_triangles(const std::vector<std::int64_t>& cost, const Ranking& ranking,
                                       double max_seconds) {
  std::vector<Triangle> triangles;
  for (const auto& [t, weight] : GreedyDual(cost, ranking, 1).priced(max_seconds)) triangles.push_back(t);
  return triangles;
}

}  // namespace

std::vector<Triangle> triangles_priced_at(const Counts& o, const Ranking& ranking, double max_seconds) {
  return priced_triangles(pair_costs(o), ranking, max_seconds);
}

GreedyBound greedy_dual_bound(const Counts& o, const Ranking& ranking, double max_seconds) {
  GreedyDual greedy(pair_costs(o), ranking, 0);
  GreedyBound out;
  for (const auto& [t, weight] : greedy.priced(max_seconds))
    out.rows.emplace_back(Cut{t, nullptr, nullptr}, Scaled{weight} * price_unit);
  const std::uint64_t at = distance(o, ranking);
  const auto shortfall = static_cast<std::uint64_t>(greedy.shortfall());
  out.bound = shortfall < at ? at - shortfall : 0;
  return out;
}

LpBound lp_bound(const Counts& o, const Separation& separate, int max_rounds, double max_seconds) {
  WallTimer timer;
  TriangleLp lp(o, separate);
  TriangleLp::Solution root = lp.solve(std::vector<signed char>(lp.columns(), -1), max_rounds, max_seconds);
  LpBound result;
  result.bound = root.bound;
  result.closed = root.status == TriangleLp::Status::closed;
  result.ranking = root.ranking;
  result.rounds = lp.rounds();
  result.cuts = lp.cuts();
  result.ladders = lp.ladders();
  result.fences = lp.fences();
  result.priced_rows = std::move(root.priced_rows);
  result.seconds = timer.seconds();
  return result;
}

#ifdef KOLLECTIVE_HAVE_CLP

bool lp_available() { return true; }

namespace {

/// A row's weight in the exact bound: minus its price, rounded to a multiple of 1 / price_unit.
/// Any weights of at least 0 give a valid bound, so a positive price (a solver's rounding) and an
/// implausibly large one count as 0.
Scaled row_weight(double price) {
  const double scaled = std::ldexp(-price, price_bits);
  if (!(scaled >= 0.5) || scaled > std::ldexp(1.0, 60 + price_bits)) return 0;
  return static_cast<Scaled>(std::nearbyint(scaled));
}

/// The ranking of an integral point (x_ij = 1: i before j), or empty when a value is fractional.
Ranking integral_ranking(const std::vector<double>& x, int n) {
  std::vector<int> before(n, 0);  // alternatives placed after each one
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double value = x[static_cast<std::size_t>(i) * n + j];
      if (value > 1e-9 && value < 1 - 1e-9) return {};
      ++before[value > 0.5 ? i : j];
    }
  }
  Ranking ranking(n);
  std::iota(ranking.begin(), ranking.end(), 0);
  std::sort(ranking.begin(), ranking.end(), [&](int a, int b) { return before[a] > before[b]; });
  return ranking;
}

}  // namespace

struct TriangleLp::State {
  int n = 0, columns = 0;
  std::vector<std::int64_t> cost;  // of x_ij: o[j][i] - o[i][j]
  std::int64_t constant = 0;       // the sum of o[i][j] over i < j
  std::int64_t step = 1;           // distance_step: distances lie a multiple of it from `constant`
  Separation separate;
  ClpSimplex model;
  /// A cut as a row over the columns: sum of sign x_column <= rhs (the arc a -> b is x_ab for a < b,
  /// else 1 - x_ba, which lowers rhs by one).
  struct Row {
    Cut cut;
    int rhs = 0;
    std::vector<std::pair<int, int>> terms;  // (column, +1 or -1)
  };
  std::vector<Row> rows;  // the cuts, in the model's row order
  int rounds = 0;
  std::int64_t triangles_added = 0, ladders_added = 0, fences_added = 0;  // those taken out since included

  std::uint64_t whole_distance(Scaled value) const {
    const Scaled whole = value <= 0 ? 0 : (value + price_unit - 1) / price_unit;
    return static_cast<std::uint64_t>(whole + ((constant - whole) % step + step) % step);  // % keeps the sign
  }

  /// A lower bound that holds for any multipliers y <= 0 of the rows a x <= b (weak duality over
  /// the columns' boxes): y b + sum over columns of min over the box of (c_j - y a_j) x_j, with y
  /// CLP's row prices rounded (row_weight) and the sums exact. From optimal prices it equals the
  /// LP optimum up to that rounding, without trusting the primal value. Fills, per free column, the
  /// end the bound assumes and the rise if it took the other end.
  void dual_bound(const std::vector<signed char>& fixed, Solution& out) const {
    const double* prices = model.dualRowSolution();
    std::vector<Scaled> reduced(cost.begin(), cost.end());
    for (Scaled& value : reduced) value *= price_unit;
    Scaled value = Scaled{constant} * price_unit;
    out.priced_rows.clear();
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const Scaled weight = row_weight(prices[r]);  // y = -weight / price_unit
      if (weight == 0) continue;
      const Row& row = rows[r];
      out.priced_rows.emplace_back(row.cut, weight);
      value -= weight * row.rhs;  // y b
      for (const auto& [column, sign] : row.terms) reduced[column] += sign * weight;
    }
    out.lean.assign(columns, 0);
    out.penalty.assign(columns, 0);
    for (int c = 0; c < columns; ++c) {
      if (fixed[c] >= 0) {
        value += reduced[c] * fixed[c];
        continue;
      }
      out.lean[c] = reduced[c] < 0 ? 1 : 0;
      out.penalty[c] = reduced[c] < 0 ? -reduced[c] : reduced[c];
      if (reduced[c] < 0) value += reduced[c];
    }
    out.dual_value = value;
    out.bound = whole_distance(value);
  }

  /// Takes out the triangles that neither bind nor hold a price at the last solve: they do not
  /// change its optimum, and the later solves are faster without them (a triangle that is needed
  /// again is found again). Ladders and fences, searched for at the first solve only, stay, except
  /// where `unpriced_facets`: then those without a price go (the first solve's end).
  void drop_slack_rows(bool unpriced_facets = false) {
    const double* prices = model.dualRowSolution();
    const double* activity = model.primalRowSolution();
    std::vector<int> slack;
    std::vector<Row> kept;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (!rows[r].cut.is_triangle() ? unpriced_facets && prices[r] == 0
                                     : prices[r] == 0 && activity[r] < rows[r].rhs - 1e-6) {
        slack.push_back(static_cast<int>(r));
      } else {
        kept.push_back(std::move(rows[r]));
      }
    }
    rows = std::move(kept);  // every row moved: the kept ones, in order
    if (!slack.empty()) model.deleteRows(static_cast<int>(slack.size()), slack.data());
  }

  Row row_of(Cut cut) const {
    Row row;
    const CutArcs arcs = cut_arcs(cut);  // a triangle: x_ij + x_jk - x_ik <= 1, or x_ik - x_jk - x_ij <= 0
    row.rhs = arcs.most_kept;
    for (const auto& [a, b] : arcs.arcs) {
      row.terms.emplace_back(pair_column(std::min(a, b), std::max(a, b), n), a < b ? 1 : -1);
      row.rhs -= a < b ? 0 : 1;
    }
    row.cut = std::move(cut);
    return row;
  }

  void add_rows(std::vector<Cut> violated) {
    std::vector<double> row_lower, row_upper, elements;
    std::vector<int> indices;
    std::vector<CoinBigIndex> row_starts = {0};
    for (Cut& cut : violated) {
      ++(cut.ladder ? ladders_added : cut.fence ? fences_added : triangles_added);
      Row row = row_of(std::move(cut));
      for (const auto& [column, sign] : row.terms) indices.push_back(column), elements.push_back(sign);
      row_lower.push_back(-COIN_DBL_MAX);
      row_upper.push_back(row.rhs);
      row_starts.push_back(static_cast<CoinBigIndex>(indices.size()));
      rows.push_back(std::move(row));
    }
    model.addRows(static_cast<int>(violated.size()), row_lower.data(), row_upper.data(), row_starts.data(),
                  indices.data(), elements.data());
  }

  /// The cuts violated at x: the triangles (only those tight at `guide` while some are; `guide`
  /// is cleared once none is), or where none is and ladders or fences are still searched (the
  /// first solve, while a round of them lifts the bound enough), those.
  std::vector<Cut> violated_cuts(const std::vector<double>& x, Scaled value, bool root, std::vector<int>& guide) {
    const int per_pair = root ? separate.root_triangles : 1;
    std::vector<Triangle> triangles = separate.triangles(x, n, per_pair, guide);
    if (triangles.empty() && !guide.empty()) {
      guide.clear();
      triangles = separate.triangles(x, n, per_pair, guide);
    }
    std::vector<Cut> cuts;
    for (const Triangle& t : triangles) cuts.push_back(Cut{t, nullptr, nullptr});
    if (!cuts.empty() || !searching_facets) return cuts;
    if (value - facet_value < facet_rise(value)) {
      searching_facets = false;
      return cuts;
    }
    facet_value = value;
    if (separate.ladders) cuts = violated_ladders(x, n);
    if (separate.fences) {
      for (Cut& fence : violated_fences(x, n)) cuts.push_back(std::move(fence));
    }
    return cuts;
  }

  /// The least rise of the bound by a round of ladders or fences for another to be searched: 1e-4
  /// of the bound, one whole unit at least (later rounds add less and less).
  static Scaled facet_rise(Scaled value) { return std::max(price_unit, value / 10000); }

  bool searching_facets = false;
  Scaled facet_value = 0;  // the bound when ladders or fences were last searched
};

TriangleLp::TriangleLp(const Counts& o, Separation separate) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.n = o.alternatives;
  if (s.n < 3) fail("Kemeny LP bound: needs at least 3 alternatives (got ", s.n, ")");
  s.columns = s.n * (s.n - 1) / 2;
  s.separate = std::move(separate);
  s.cost = pair_costs(o);
  for (int i = 0; i < s.n; ++i) {
    for (int j = i + 1; j < s.n; ++j) s.constant += o.at(i, j);
  }
  s.step = distance_step(o);
  const std::vector<double> lower(s.columns, 0.0), upper(s.columns, 1.0);
  const std::vector<double> cost(s.cost.begin(), s.cost.end());  // exact: below 2^33
  const std::vector<CoinBigIndex> starts(s.columns + 1, 0);
  s.model.setLogLevel(0);
  // Dual steepest edge in full (mode 1: every infeasible row priced, weights initialized), not
  // CLP's default (mode 3: partial pricing with uninitialized weights, for easy problems): SGB's
  // tables of 75 1.4-3.8x faster (2x on the geometric mean), random tournaments of 36-40 7% on
  // the geometric mean (perf/results/kemeny/cpu_lp_pricing.md).
  ClpDualRowSteepest pricing(1);
  s.model.setDualRowPivotAlgorithm(pricing);  // copied
  s.model.loadProblem(s.columns, 0, starts.data(), nullptr, nullptr, lower.data(), upper.data(), cost.data(), nullptr,
                      nullptr);
}

TriangleLp::~TriangleLp() = default;

TriangleLp::Solution TriangleLp::solve(const std::vector<signed char>& fixed, int max_rounds, double max_seconds,
                                       const Enough& enough, const Ranking* incumbent) {
  WallTimer timer;
  State& s = *state_;
  const bool root = s.rounds == 0;
  const bool facets = s.separate.ladders || s.separate.fences;
  s.searching_facets = root && facets;  // the first solve only
  s.facet_value = -(Scaled{1} << 100);
  for (int c = 0; c < s.columns; ++c) {
    s.model.setColumnBounds(c, fixed[c] < 0 ? 0.0 : fixed[c], fixed[c] < 0 ? 1.0 : fixed[c]);
  }
  Solution out, priced;  // priced: the last solve's prices, kept in `out` where they bound higher
  out.x.assign(static_cast<std::size_t>(s.n) * s.n, 0.0);
  bool have_prices = false;
  if (incumbent && static_cast<int>(incumbent->size()) != s.n)
    fail("Kemeny LP: an incumbent of ", incumbent->size(), " alternatives for ", s.n, " (internal error)");
  bool guided = incumbent != nullptr;
  std::vector<int> guide;  // the incumbent's positions while guided
  if (guided && root) {
    std::vector<Cut> first;
    for (const Triangle& t : priced_triangles(s.cost, *incumbent, max_seconds / 10))
      first.push_back(Cut{t, nullptr, nullptr});
    if (!first.empty()) s.add_rows(std::move(first));
  }
  for (int solves = 1;; ++solves) {
    kollective::Impl::interruption_point();
    s.model.setMaximumWallSeconds(std::max(0.1, max_seconds - timer.seconds()));  // wall: CPU time counts every thread
    s.model.dual();
    ++s.rounds;
    if (s.model.status() == 1) {  // proven primal infeasible: the fixings contradict each other
      out.status = Status::infeasible;
      return out;
    }
    // Any prices give a valid bound; optimal ones give the LP optimum (so a round that stops early
    // still counts what it reached).
    s.dual_bound(fixed, priced);
    if (!have_prices || priced.dual_value >= out.dual_value) {
      have_prices = true;
      out.bound = priced.bound, out.dual_value = priced.dual_value;
      out.lean.swap(priced.lean), out.penalty.swap(priced.penalty), out.priced_rows.swap(priced.priced_rows);
    }
    // Stopped (a time limit): keep the bound. Neither the bound nor a certificate depends on the
    // solution's accuracy: the bound comes from the prices, and a ranking is checked by its distance.
    if (s.model.status() != 0) return out;
    const double* solution = s.model.primalColumnSolution();
    for (int i = 0; i < s.n; ++i) {
      for (int j = i + 1; j < s.n; ++j) out.x[static_cast<std::size_t>(i) * s.n + j] = solution[pair_column(i, j, s.n)];
    }
    if (enough && out.bound >= enough(out.x)) {
      out.status = Status::enough;
      return out;
    }
    if (guided) guide = places(*incumbent);
    std::vector<Cut> violated = s.violated_cuts(out.x, priced.dual_value, root, guide);
    guided = !guide.empty();
    if (violated.empty()) {
      if (root && facets) s.drop_slack_rows(true);  // the ladders and fences the root's optimum does not price
      out.status = Status::closed;
      out.ranking = integral_ranking(out.x, s.n);
      return out;
    }
    if (timer.seconds() >= max_seconds) return out;
    s.drop_slack_rows();
    s.add_rows(std::move(violated));
    if (solves >= max_rounds) {
      out.status = Status::rounds;
      return out;
    }
  }
}

std::uint64_t TriangleLp::whole_distance(Scaled value) const { return state_->whole_distance(value); }
int TriangleLp::alternatives() const { return state_->n; }
int TriangleLp::columns() const { return state_->columns; }
int TriangleLp::rounds() const { return state_->rounds; }
std::int64_t TriangleLp::cuts() const { return state_->triangles_added; }
std::int64_t TriangleLp::ladders() const { return state_->ladders_added; }
std::int64_t TriangleLp::fences() const { return state_->fences_added; }

#else

bool lp_available() { return false; }

struct TriangleLp::State {};

TriangleLp::TriangleLp(const Counts&, Separation) {
  fail("Kemeny's LP bound needs COIN-OR CLP, and this build has none (configure with -DKOLLECTIVE_LP=on)");
}
TriangleLp::~TriangleLp() = default;
TriangleLp::Solution TriangleLp::solve(const std::vector<signed char>&, int, double, const Enough&, const Ranking*) {
  return {};
}
std::uint64_t TriangleLp::whole_distance(Scaled) const { return 0; }
int TriangleLp::alternatives() const { return 0; }
int TriangleLp::columns() const { return 0; }
int TriangleLp::rounds() const { return 0; }
std::int64_t TriangleLp::cuts() const { return 0; }
std::int64_t TriangleLp::ladders() const { return 0; }
std::int64_t TriangleLp::fences() const { return 0; }

#endif

}  // namespace kollective::kemeny
