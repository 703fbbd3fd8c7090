#include "algorithms/kemeny/KemenyLP.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/Error.hpp"
#include "core/Timer.hpp"

#ifdef KOLLECTIVE_HAVE_CLP
#include <ClpSimplex.hpp>
#endif

namespace kollective::kemeny {

std::uint64_t whole_bound(double bound) {
  return static_cast<std::uint64_t>(std::max(0.0, std::ceil(bound - 1e-7 * (1 + std::fabs(bound)))));
}

LpBound lp_bound(const Counts& o, const TriangleSeparation& separate, int max_rounds, double max_seconds) {
  WallTimer timer;
  TriangleLp lp(o, separate);
  const TriangleLp::Solution root = lp.solve(std::vector<signed char>(lp.columns(), -1), max_rounds, max_seconds);
  LpBound result;
  result.bound = whole_bound(root.bound);
  result.closed = root.status == TriangleLp::Status::closed;
  result.ranking = root.ranking;
  result.rounds = lp.rounds();
  result.cuts = lp.cuts();
  result.seconds = timer.seconds();
  return result;
}

#ifdef KOLLECTIVE_HAVE_CLP

bool lp_available() { return true; }

namespace {

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
  std::vector<double> cost;  // of x_ij: o[j][i] - o[i][j]
  double constant = 0;       // the sum of o[i][j] over i < j
  TriangleSeparation separate;
  ClpSimplex model;
  std::vector<Triangle> rows;  // the cuts, in the model's row order
  int rounds = 0;
  std::int64_t added = 0;  // cuts added, those taken out since included

  /// A lower bound that holds for any multipliers y <= 0 of the rows a x <= b (weak duality over
  /// the columns' boxes): y b + sum over columns of min over the box of (c_j - y a_j) x_j. From
  /// CLP's row prices it equals the optimum up to rounding, without trusting the primal value.
  /// Fills, per free column, the end the bound assumes and the rise if it took the other end.
  double dual_bound(const std::vector<signed char>& fixed, Solution& out) const {
    const double* prices = model.dualRowSolution();
    std::vector<double> reduced = cost;
    double value = constant;
    out.priced_rows.clear();
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double y = std::min(0.0, prices[r]);
      const Triangle& t = rows[r];
      if (y < 0) out.priced_rows.emplace_back(t, -y);
      const double sign = t.upper ? 1.0 : -1.0;
      value += y * (t.upper ? 1.0 : 0.0);
      reduced[pair_column(t.i, t.j, n)] -= y * sign;
      reduced[pair_column(t.j, t.k, n)] -= y * sign;
      reduced[pair_column(t.i, t.k, n)] += y * sign;
    }
    out.lean.assign(columns, 0);
    out.penalty.assign(columns, 0.0);
    for (int c = 0; c < columns; ++c) {
      if (fixed[c] >= 0) {
        value += reduced[c] * fixed[c];
        continue;
      }
      out.lean[c] = reduced[c] < 0 ? 1 : 0;
      out.penalty[c] = std::fabs(reduced[c]);
      value += std::min(0.0, reduced[c]);
    }
    return value;
  }

  /// Takes out the cuts that neither bind nor hold a price at the last solve: they do not change
  /// its optimum, and the later solves are faster without them (a cut that is needed again is
  /// found again).
  void drop_slack_rows() {
    const double* prices = model.dualRowSolution();
    const double* activity = model.primalRowSolution();
    std::vector<int> slack;
    std::vector<Triangle> kept;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double upper = rows[r].upper ? 1.0 : 0.0;
      if (prices[r] == 0 && activity[r] < upper - 1e-6) {
        slack.push_back(static_cast<int>(r));
      } else {
        kept.push_back(rows[r]);
      }
    }
    if (slack.empty()) return;
    model.deleteRows(static_cast<int>(slack.size()), slack.data());
    rows = std::move(kept);
  }

  void add_rows(const std::vector<Triangle>& violated) {
    std::vector<double> row_lower, row_upper, elements;
    std::vector<int> indices;
    std::vector<CoinBigIndex> row_starts = {0};
    for (const Triangle& t : violated) {
      indices.insert(indices.end(), {pair_column(t.i, t.j, n), pair_column(t.j, t.k, n), pair_column(t.i, t.k, n)});
      const double sign = t.upper ? 1.0 : -1.0;  // upper: x_ij + x_jk - x_ik <= 1; else -x_ij - x_jk + x_ik <= 0
      elements.insert(elements.end(), {sign, sign, -sign});
      row_lower.push_back(-COIN_DBL_MAX);
      row_upper.push_back(t.upper ? 1.0 : 0.0);
      row_starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    }
    model.addRows(static_cast<int>(violated.size()), row_lower.data(), row_upper.data(), row_starts.data(),
                  indices.data(), elements.data());
    rows.insert(rows.end(), violated.begin(), violated.end());
    added += static_cast<std::int64_t>(violated.size());
  }
};

TriangleLp::TriangleLp(const Counts& o, TriangleSeparation separate) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.n = o.alternatives;
  if (s.n < 3) fail("Kemeny LP bound: needs at least 3 alternatives (got ", s.n, ")");
  s.columns = s.n * (s.n - 1) / 2;
  s.separate = std::move(separate);
  s.cost.resize(s.columns);
  for (int i = 0; i < s.n; ++i) {
    for (int j = i + 1; j < s.n; ++j) {
      s.cost[pair_column(i, j, s.n)] = static_cast<double>(o.at(j, i)) - static_cast<double>(o.at(i, j));
      s.constant += static_cast<double>(o.at(i, j));
    }
  }
  const std::vector<double> lower(s.columns, 0.0), upper(s.columns, 1.0);
  const std::vector<CoinBigIndex> starts(s.columns + 1, 0);
  s.model.setLogLevel(0);
  s.model.loadProblem(s.columns, 0, starts.data(), nullptr, nullptr, lower.data(), upper.data(), s.cost.data(), nullptr,
                      nullptr);
}

TriangleLp::~TriangleLp() = default;

TriangleLp::Solution TriangleLp::solve(const std::vector<signed char>& fixed, int max_rounds, double max_seconds,
                                       const Enough& enough) {
  WallTimer timer;
  State& s = *state_;
  for (int c = 0; c < s.columns; ++c) {
    s.model.setColumnBounds(c, fixed[c] < 0 ? 0.0 : fixed[c], fixed[c] < 0 ? 1.0 : fixed[c]);
  }
  Solution out;
  out.x.assign(static_cast<std::size_t>(s.n) * s.n, 0.0);
  out.bound = -std::numeric_limits<double>::infinity();
  for (int solves = 1;; ++solves) {
    s.model.setMaximumSeconds(std::max(0.1, max_seconds - timer.seconds()));
    s.model.dual();
    ++s.rounds;
    if (s.model.status() == 1) {  // proven primal infeasible: the fixings contradict each other
      out.status = Status::infeasible;
      return out;
    }
    // Any prices give a valid bound; optimal ones give the LP optimum (so a round that stops early
    // still counts what it reached).
    out.dual_value = s.dual_bound(fixed, out);
    out.bound = std::max(out.bound, out.dual_value);
    // Stopped (a time limit): keep the bound. Neither the bound nor a certificate depends on the
    // solution's accuracy: the bound comes from the prices, and a ranking is checked by its distance.
    if (s.model.status() != 0) return out;
    const double* solution = s.model.primalColumnSolution();
    for (int i = 0; i < s.n; ++i) {
      for (int j = i + 1; j < s.n; ++j) out.x[static_cast<std::size_t>(i) * s.n + j] = solution[pair_column(i, j, s.n)];
    }
    if (enough && static_cast<double>(whole_bound(out.bound)) > enough(out.x)) {
      out.status = Status::enough;
      return out;
    }
    const std::vector<Triangle> violated = s.separate(out.x, s.n);
    if (violated.empty()) {
      out.status = Status::closed;
      out.ranking = integral_ranking(out.x, s.n);
      return out;
    }
    if (solves >= max_rounds || timer.seconds() >= max_seconds) return out;
    s.drop_slack_rows();
    s.add_rows(violated);
  }
}

int TriangleLp::alternatives() const { return state_->n; }
int TriangleLp::columns() const { return state_->columns; }
int TriangleLp::rounds() const { return state_->rounds; }
std::int64_t TriangleLp::cuts() const { return state_->added; }

#else

bool lp_available() { return false; }

struct TriangleLp::State {};

TriangleLp::TriangleLp(const Counts&, TriangleSeparation) {
  fail("Kemeny's LP bound needs COIN-OR CLP, and this build has none (configure with -DKOLLECTIVE_LP=on)");
}
TriangleLp::~TriangleLp() = default;
TriangleLp::Solution TriangleLp::solve(const std::vector<signed char>&, int, double, const Enough&) { return {}; }
int TriangleLp::alternatives() const { return 0; }
int TriangleLp::columns() const { return 0; }
int TriangleLp::rounds() const { return 0; }
std::int64_t TriangleLp::cuts() const { return 0; }

#endif

}  // namespace kollective::kemeny
