#include "algorithms/kemeny/KemenyLP.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/Error.hpp"
#include "core/Timer.hpp"

#ifdef KOLLECTIVE_HAVE_CLP
#include <ClpSimplex.hpp>
#endif

namespace kollective::kemeny {

#ifdef KOLLECTIVE_HAVE_CLP

bool lp_available() { return true; }

namespace {

/// Column of x_ij (i < j) among the n (n - 1) / 2 pair variables.
int column(int i, int j, int n) { return i * n - i * (i + 1) / 2 + (j - i - 1); }

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

/// A lower bound on the LP optimum that holds for any multipliers y <= 0 of the rows a x <= b
/// (weak duality over the box 0 <= x <= 1): y b + sum over columns of min(0, c_j - y a_j). From
/// CLP's row prices it equals the optimum up to rounding, without trusting the primal value.
double dual_bound(const std::vector<double>& cost, const std::vector<Triangle>& rows, const double* prices, int n) {
  std::vector<double> reduced = cost;
  double value = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = std::min(0.0, prices[r]);
    const Triangle& t = rows[r];
    const double sign = t.upper ? 1.0 : -1.0;
    value += y * (t.upper ? 1.0 : 0.0);
    reduced[column(t.i, t.j, n)] -= y * sign;
    reduced[column(t.j, t.k, n)] -= y * sign;
    reduced[column(t.i, t.k, n)] += y * sign;
  }
  for (double d : reduced) value += std::min(0.0, d);
  return value;
}

}  // namespace

LpBound lp_bound(const Counts& o, const TriangleSeparation& separate, int max_rounds, double max_seconds) {
  WallTimer timer;
  const int n = o.alternatives, columns = n * (n - 1) / 2;
  LpBound result;
  if (n < 3) fail("Kemeny LP bound: needs at least 3 alternatives (got ", n, ")");
  // Cost of x_ij: o[j][i] - o[i][j], plus the constant sum of o[i][j] over i < j.
  std::vector<double> cost(columns), lower(columns, 0.0), upper(columns, 1.0);
  double constant = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      cost[column(i, j, n)] = static_cast<double>(o.at(j, i)) - static_cast<double>(o.at(i, j));
      constant += static_cast<double>(o.at(i, j));
    }
  }
  ClpSimplex model;
  model.setLogLevel(0);
  const std::vector<CoinBigIndex> starts(columns + 1, 0);
  model.loadProblem(columns, 0, starts.data(), nullptr, nullptr, lower.data(), upper.data(), cost.data(), nullptr,
                    nullptr);
  std::vector<Triangle> rows;  // the cuts, in the model's row order
  std::vector<double> x(static_cast<std::size_t>(n) * n, 0.0);
  double best = -COIN_DBL_MAX;  // the best valid bound so far, without the constant
  while (true) {
    model.setMaximumSeconds(std::max(1.0, max_seconds - timer.seconds()));
    model.dual();
    ++result.rounds;
    // Any prices give a valid bound; optimal ones give the LP optimum (so a round that stops early
    // still counts what it reached).
    best = std::max(best, dual_bound(cost, rows, model.dualRowSolution(), n));
    // Not optimal (a time limit): keep the bound. Neither the bound nor a certificate depends on
    // the solution's accuracy: the bound comes from the prices, and a ranking is checked by its
    // distance.
    if (model.status() != 0) break;
    const double* solution = model.primalColumnSolution();
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) x[static_cast<std::size_t>(i) * n + j] = solution[column(i, j, n)];
    }
    const std::vector<Triangle> violated = separate(x, n);
    if (violated.empty()) result.closed = true;
    if (violated.empty() || result.rounds >= max_rounds || timer.seconds() >= max_seconds) break;
    std::vector<double> row_lower, row_upper, elements;
    std::vector<int> indices;
    std::vector<CoinBigIndex> row_starts = {0};
    for (const Triangle& t : violated) {
      const int ij = column(t.i, t.j, n), jk = column(t.j, t.k, n), ik = column(t.i, t.k, n);
      indices.insert(indices.end(), {ij, jk, ik});
      const double sign = t.upper ? 1.0 : -1.0;  // upper: x_ij + x_jk - x_ik <= 1; else -x_ij - x_jk + x_ik <= 0
      elements.insert(elements.end(), {sign, sign, -sign});
      row_lower.push_back(-COIN_DBL_MAX);
      row_upper.push_back(t.upper ? 1.0 : 0.0);
      row_starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    }
    model.addRows(static_cast<int>(violated.size()), row_lower.data(), row_upper.data(), row_starts.data(),
                  indices.data(), elements.data());
    rows.insert(rows.end(), violated.begin(), violated.end());
    result.cuts += static_cast<std::int64_t>(violated.size());
  }
  // Rounded up to a whole doubled count, less a margin for the rounding of the sums above.
  const double value = constant + best;
  result.bound = static_cast<std::uint64_t>(std::max(0.0, std::ceil(value - 1e-7 * (1 + std::fabs(value)))));
  if (result.closed) result.ranking = integral_ranking(x, n);
  result.seconds = timer.seconds();
  return result;
}

#else

bool lp_available() { return false; }

LpBound lp_bound(const Counts&, const TriangleSeparation&, int, double) {
  fail("Kemeny's LP bound needs COIN-OR CLP, and this build has none (configure with -DKOLLECTIVE_LP=on)");
}

#endif

}  // namespace kollective::kemeny
