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

}  // namespace

LpBound lp_bound(const Counts& o, const TriangleSeparation& separate, int max_rounds) {
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
  std::vector<double> x(static_cast<std::size_t>(n) * n, 0.0);
  while (true) {
    model.dual();
    ++result.rounds;
    if (model.status() != 0) fail("Kemeny LP bound: CLP stopped with status ", model.status(), " (not optimal)");
    const double* solution = model.primalColumnSolution();
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) x[static_cast<std::size_t>(i) * n + j] = solution[column(i, j, n)];
    }
    const std::vector<Triangle> violated = separate(x, n);
    if (violated.empty()) result.closed = true;
    if (violated.empty() || result.rounds >= max_rounds) break;
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
    result.cuts += static_cast<std::int64_t>(violated.size());
  }
  // The LP value, less the solver's tolerance, rounded up to a whole doubled count.
  const double value = constant + model.objectiveValue();
  result.bound = static_cast<std::uint64_t>(std::max(0.0, std::ceil(value - 1e-6 * (1 + std::fabs(value)))));
  if (result.closed) result.ranking = integral_ranking(x, n);
  result.seconds = timer.seconds();
  return result;
}

#else

bool lp_available() { return false; }

LpBound lp_bound(const Counts&, const TriangleSeparation&, int) {
  fail("Kemeny's LP bound needs COIN-OR CLP, and this build has none (configure with -DKOLLECTIVE_LP=on)");
}

#endif

}  // namespace kollective::kemeny
