// Kemeny's LP bound and branch and cut (KemenyLP.hpp, KemenySearch.hpp) against brute force and
// the subset DP, and their triangle search against one written out (included once per backend).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <tuple>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyFences.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLadders.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyReductions.hpp"
#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/algorithms/kemeny/impl/KemenySearch.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

/// The device's triangle separation (`root_triangles` triangles a pair at the first solve), and
/// Möbius ladders and fences after it where asked.
template <class ExecSpace>
kemeny::Separation separation_on(const ExecSpace& space, bool ladders = false, bool fences = false,
                                 int root_triangles = 1) {
  return {[space](const std::vector<double>& x, int n, int per_pair, const std::vector<int>& guide) {
            return kemeny::Impl::violated_triangles(space, x, n, per_pair, guide);
          },
          ladders, fences, root_triangles};
}

/// The LP bound with the device's triangle separation.
template <class ExecSpace>
kemeny::LpBound lp_bound_on(const kemeny::Counts& o) {
  return kemeny::lp_bound(o, separation_on(ExecSpace()));
}

/// The separation written out plainly: for each pair i < j in order, the `per_pair` k > j and
/// inequalities of the largest violations above 1e-7, largest first (on ties, the first k, and the
/// upper inequality); with a guide (positions of a ranking), only the inequalities that hold with
/// equality at the ranking's 0/1 point.
inline std::vector<kemeny::Triangle> triangles_by_hand(const std::vector<double>& x, int n, int per_pair,
                                                       const std::vector<int>& guide = {}) {
  std::vector<kemeny::Triangle> found;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      std::vector<std::pair<double, kemeny::Triangle>> violated;
      for (int k = j + 1; k < n; ++k) {
        const double upper = x[i * n + j] + x[j * n + k] - x[i * n + k] - 1;
        const double lower = x[i * n + k] - x[i * n + j] - x[j * n + k];
        bool upper_tight = true, lower_tight = true;
        if (!guide.empty()) {
          const int ij = guide[i] < guide[j], jk = guide[j] < guide[k], ik = guide[i] < guide[k];
          upper_tight = ij + jk - ik == 1;
          lower_tight = ik - ij - jk == 0;
        }
        if (upper > 1e-7 && upper_tight) violated.push_back({upper, {i, j, k, true}});
        if (lower > 1e-7 && lower_tight) violated.push_back({lower, {i, j, k, false}});
      }
      std::stable_sort(violated.begin(), violated.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (int t = 0; t < per_pair && t < static_cast<int>(violated.size()); ++t) found.push_back(violated[t].second);
    }
  }
  return found;
}

TEST(TEST_CATEGORY, kemeny_triangle_search_on_the_space_and_on_the_host_find_the_written_out_triangles) {
  auto same = [](const std::vector<kemeny::Triangle>& a, const std::vector<kemeny::Triangle>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& s, const auto& t) {
             return std::tie(s.i, s.j, s.k, s.upper) == std::tie(t.i, t.j, t.k, t.upper);
           });
  };
  TEST_EXECSPACE space;
  // A known answer: x(0,1) = x(1,2) = 1 and x(0,2) = 0 breaks the upper inequality of (0, 1, 2).
  const std::vector<double> cycle = {0, 1, 0, 0, 0, 1, 0, 0, 0};
  ASSERT_EQ(triangles_by_hand(cycle, 3, 1).size(), 1u);
  EXPECT_TRUE(same(kemeny::Impl::violated_triangles_on_host(cycle, 3), triangles_by_hand(cycle, 3, 1)));
  EXPECT_TRUE(same(kemeny::Impl::violated_triangles(space, cycle, 3), triangles_by_hand(cycle, 3, 1)));
  for (const int n : {17, 41}) {
    HostRng rng(static_cast<std::uint64_t>(n));
    std::vector<double> x(static_cast<std::size_t>(n) * n);
    for (double& value : x) {  // 0, 1 and 1/2 make ties between k and between the inequalities
      const std::uint64_t kind = uniform_below(rng, 4);
      value = kind == 0 ? 0.0 : kind == 1 ? 1.0 : kind == 2 ? 0.5 : uniform_unit(rng);
    }
    std::vector<int> guide(n);  // a ranking's positions: only the triangles tight there
    std::iota(guide.begin(), guide.end(), 0);
    for (int a = n - 1; a > 0; --a) std::swap(guide[a], guide[uniform_below(rng, static_cast<std::uint64_t>(a) + 1)]);
    for (int per_pair = 1; per_pair <= kemeny::most_triangles_per_pair; ++per_pair) {
      const auto expected = triangles_by_hand(x, n, per_pair);
      const std::string what = "n=" + std::to_string(n) + " per_pair=" + std::to_string(per_pair);
      EXPECT_GT(expected.size(), static_cast<std::size_t>(n * per_pair)) << what;
      EXPECT_TRUE(same(kemeny::Impl::violated_triangles_on_host(x, n, per_pair), expected)) << what;
      EXPECT_TRUE(same(kemeny::Impl::violated_triangles(space, x, n, per_pair), expected)) << what;
      const auto guided = triangles_by_hand(x, n, per_pair, guide);
      EXPECT_GT(guided.size(), static_cast<std::size_t>(n * per_pair)) << what << " guided";
      EXPECT_FALSE(same(guided, expected)) << what << " guided";
      EXPECT_TRUE(same(kemeny::Impl::violated_triangles_on_host(x, n, per_pair, guide), guided)) << what << " guided";
      EXPECT_TRUE(same(kemeny::Impl::violated_triangles(space, x, n, per_pair, guide), guided)) << what << " guided";
    }
  }
  EXPECT_THROW(kemeny::Impl::violated_triangles_on_host(cycle, 3, kemeny::most_triangles_per_pair + 1), Error);
}

/// Counts of n alternatives where each pair's margin o(a, b) - o(b, a) is 0 but those listed
/// (a, b, margin of a over b).
inline kemeny::Counts counts_with_margins(int n, const std::vector<std::tuple<int, int, int>>& margins) {
  kemeny::Counts o;
  o.alternatives = n;
  o.names = preferences::numbered_names(n);
  o.doubled.assign(static_cast<std::size_t>(n) * n, 0);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) o.doubled[static_cast<std::size_t>(a) * n + b] = a == b ? 0 : 10;
  }
  for (const auto& [a, b, margin] : margins) o.doubled[static_cast<std::size_t>(a) * n + b] += margin;
  return o;
}

TEST(TEST_CATEGORY, kemeny_greedy_dual_prices_triangles_tight_at_the_ranking) {
  auto listed = [](const std::vector<kemeny::Triangle>& found) {
    std::vector<std::tuple<int, int, int, bool>> out;
    for (const auto& t : found) out.emplace_back(t.i, t.j, t.k, t.upper);
    return out;
  };
  using Listed = std::vector<std::tuple<int, int, int, bool>>;
  // A majority cycle 0 > 1 > 2 > 0 ranked 0, 1, 2: the pair (0, 2) falls short, and the triangle
  // through 1 (the dicycle 0 -> 1 -> 2 -> 0: upper) covers it; ranked 0, 2, 1 the pairs (0, 2) and
  // (2, 1) fall short, and adjacent pairs have no middle: nothing is priced.
  const auto cycle = counts_with_margins(3, {{0, 1, 2}, {1, 2, 2}, {2, 0, 2}});
  EXPECT_EQ(listed(kemeny::triangles_priced_at(cycle, {0, 1, 2})), (Listed{{0, 1, 2, true}}));
  EXPECT_EQ(listed(kemeny::triangles_priced_at(cycle, {1, 2, 0})), (Listed{{0, 1, 2, true}}));
  EXPECT_TRUE(kemeny::triangles_priced_at(cycle, {0, 2, 1}).empty());
  // Ranked 0, 1, 2, 3 with only (0, 3) short (by 2): its middles' pairs (1, 3) and (0, 2) have no
  // margin, so the greedy first lifts (1, 3) through 2, then covers (0, 3) through 1.
  const auto deeper = counts_with_margins(4, {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 2}});
  EXPECT_EQ(listed(kemeny::triangles_priced_at(deeper, {0, 1, 2, 3})), (Listed{{0, 1, 3, true}, {1, 2, 3, true}}));
  // The other cycle, 0 > 2 > 1 > 0, ranked 0, 2, 1: the dicycle 0 -> 2 -> 1 -> 0, the lower one.
  const auto other = counts_with_margins(3, {{0, 2, 2}, {2, 1, 2}, {1, 0, 2}});
  EXPECT_EQ(listed(kemeny::triangles_priced_at(other, {0, 2, 1})), (Listed{{0, 1, 2, false}}));
  // Random tournaments and rankings: each triangle keeps two arcs of its dicycle at the ranking
  // (tight), none is listed twice, and a ranking of other alternatives is refused.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const int n = 12 + 5 * static_cast<int>(seed);
    const auto o = random_tournament(n, 3, seed);
    HostRng rng(seed);
    kemeny::Ranking ranking(n);
    std::iota(ranking.begin(), ranking.end(), 0);
    for (int a = n - 1; a > 0; --a)
      std::swap(ranking[a], ranking[uniform_below(rng, static_cast<std::uint64_t>(a) + 1)]);
    const std::vector<int> place = kemeny::places(ranking);
    const auto priced = listed(kemeny::triangles_priced_at(o, ranking));
    EXPECT_GT(priced.size(), static_cast<std::size_t>(n)) << "seed " << seed;
    const std::set<std::tuple<int, int, int, bool>> distinct(priced.begin(), priced.end());
    EXPECT_EQ(distinct.size(), priced.size()) << "seed " << seed << ": a triangle listed twice";
    for (const auto& [i, j, k, upper] : priced) {
      ASSERT_TRUE(0 <= i && i < j && j < k && k < n);
      const int ij = place[i] < place[j], jk = place[j] < place[k], ik = place[i] < place[k];
      EXPECT_EQ(upper ? ij + jk - ik : ik - ij - jk, upper ? 1 : 0) << "seed " << seed << ": not tight";
    }
  }
  EXPECT_THROW(kemeny::triangles_priced_at(cycle, {0, 1}), Error);
}

/// The bound that weights on rows give by weak duality, written out over the arcs: each pair at
/// its cheaper order, o(b, a) + W(a -> b) for a before b, where W(arc) sums the weights of the rows
/// holding the arc, less each row's weight times the arcs it lets a ranking keep; rounded up.
inline std::uint64_t bound_from_rows(const kemeny::Counts& o,
                                     const std::vector<std::pair<kemeny::Cut, kemeny::Scaled>>& rows) {
  const int n = o.alternatives;
  std::vector<kemeny::Scaled> held(static_cast<std::size_t>(n) * n, 0);  // W(a -> b) at a * n + b
  kemeny::Scaled total = 0;
  for (const auto& [cut, weight] : rows) {
    const kemeny::CutArcs arcs = kemeny::cut_arcs(cut);
    for (const auto& [a, b] : arcs.arcs) held[static_cast<std::size_t>(a) * n + b] += weight;
    total -= weight * arcs.most_kept;
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      total += std::min(kemeny::Scaled{o.at(b, a)} * kemeny::price_unit + held[static_cast<std::size_t>(a) * n + b],
                        kemeny::Scaled{o.at(a, b)} * kemeny::price_unit + held[static_cast<std::size_t>(b) * n + a]);
    }
  }
  return total <= 0 ? 0 : static_cast<std::uint64_t>((total + kemeny::price_unit - 1) / kemeny::price_unit);
}

TEST(TEST_CATEGORY, kemeny_greedy_dual_bound_never_exceeds_the_optimum) {
  // The majority cycle ranked 0, 1, 2: the triangle covers (0, 2), so the bound is the ranking's
  // distance, which is optimal (every ranking pays one margin of the cycle), above the pairwise bound.
  const auto cycle = counts_with_margins(3, {{0, 1, 2}, {1, 2, 2}, {2, 0, 2}});
  const kemeny::GreedyBound closed = kemeny::greedy_dual_bound(cycle, {0, 1, 2});
  EXPECT_EQ(closed.bound, kemeny::distance(cycle, {0, 1, 2}));
  EXPECT_GT(closed.bound, kemeny::lower_bound(cycle));
  EXPECT_EQ(bound_from_rows(cycle, closed.rows), closed.bound);
  // Small profiles at random rankings and at an optimum: never above the optimum, its rows give
  // it exactly, and at the optimum it is often above the pairwise bound.
  int above_pairwise = 0, cases = 0;
  for (int n = 4; n <= 8; ++n) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const auto o = seed % 2 == 0 ? random_tournament(n, 3, seed)
                                   : preferences::pairwise_reference(random_weak_profile(n, 5, seed, 3));
      const kemeny::BruteForceResult brute = kemeny::brute_force(o);
      HostRng rng(seed + 100 * static_cast<std::uint64_t>(n));
      kemeny::Ranking ranking(n);
      std::iota(ranking.begin(), ranking.end(), 0);
      for (int trial = 0; trial < 4; ++trial) {
        for (int a = n - 1; a > 0; --a)
          std::swap(ranking[a], ranking[uniform_below(rng, static_cast<std::uint64_t>(a) + 1)]);
        const kemeny::GreedyBound greedy = kemeny::greedy_dual_bound(o, ranking);
        EXPECT_LE(greedy.bound, brute.distance) << "n=" << n << " seed=" << seed;
        EXPECT_EQ(bound_from_rows(o, greedy.rows), greedy.bound) << "n=" << n << " seed=" << seed << ": rows";
      }
      const std::uint64_t at_optimum = kemeny::greedy_dual_bound(o, brute.optima.front()).bound;
      EXPECT_LE(at_optimum, brute.distance) << "n=" << n << " seed=" << seed;
      above_pairwise += at_optimum > kemeny::lower_bound(o);
      ++cases;
    }
  }
  EXPECT_GT(above_pairwise, cases / 2) << "the greedy's bound rarely beats the pairwise one";
}

TEST(TEST_CATEGORY, kemeny_lp_bound_never_exceeds_the_optimum) {
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  int integral = 0;
  for (int n = 3; n <= 8; ++n) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const auto o = preferences::pairwise_reference(random_weak_profile(n, 1 + static_cast<int>(seed % 7), seed, 4));
      const kemeny::BruteForceResult brute = kemeny::brute_force(o);
      const kemeny::LpBound lp = lp_bound_on<TEST_EXECSPACE>(o);
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      EXPECT_TRUE(lp.closed) << what;
      EXPECT_LE(lp.bound, brute.distance) << what;
      EXPECT_GE(lp.bound, kemeny::lower_bound(o)) << what;
      if (!lp.ranking.empty()) {  // an integral LP optimum is an optimal ranking
        ++integral;
        EXPECT_EQ(kemeny::distance(o, lp.ranking), brute.distance) << what;
        EXPECT_EQ(lp.bound, brute.distance) << what << ": the prices of every kept row prove the LP optimum";
      }
    }
  }
  EXPECT_GT(integral, 36) << "of 72 small profiles, few had an integral LP optimum";
}

/// The least distance a ranking of o can have at or above `at`: one that lies a multiple of
/// distance_step(o) from the sum of o_ij over i < j (counted up, one at a time).
inline std::uint64_t on_the_distances_step(const kemeny::Counts& o, double at) {
  const std::int64_t step = kemeny::distance_step(o);
  std::int64_t constant = 0;
  for (int i = 0; i < o.alternatives; ++i) {
    for (int j = i + 1; j < o.alternatives; ++j) constant += o.at(i, j);
  }
  auto distance = static_cast<std::int64_t>(at);
  while ((distance - constant) % step != 0) ++distance;
  return static_cast<std::uint64_t>(distance);
}

TEST(TEST_CATEGORY, kemeny_lp_prices_prove_the_lp_optimum_solve_after_solve) {
  // Strong duality: every closed solve's exact bound, from the prices of the rows it keeps, is the
  // LP optimum rounded up to the next distance a ranking can have, in a dive that fixes one more
  // pair a solve (as a search's nodes do) over rounds that add rows and take slack ones out.
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  // With ladders (seeds 4-6) and fences (3-6), their rows are priced too.
  TEST_EXECSPACE space;
  int closed = 0;
  std::int64_t ladders = 0, fences = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto o = random_tournament(24, 1, seed);
    const int n = o.alternatives;
    // Three triangles a pair at the first solve for even seeds, as branch and cut's root takes.
    kemeny::TriangleLp lp(o, separation_on(space, seed > 3, seed > 2, seed % 2 == 0 ? 3 : 1));
    std::vector<signed char> fixed(lp.columns(), -1);
    for (int dive = 0; dive < 12; ++dive) {
      const auto solution = lp.solve(fixed, 200, 60);
      if (solution.status != kemeny::TriangleLp::Status::closed) break;
      ++closed;
      double primal = 0;  // the distance at the LP point
      int most_fractional = -1;
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
          const double x = solution.x[static_cast<std::size_t>(i) * n + j];
          primal += x * o.at(j, i) + (1 - x) * o.at(i, j);
          const int c = kemeny::pair_column(i, j, n);
          if (fixed[c] < 0 && std::abs(x - 0.5) < 0.5 - 1e-6 && (most_fractional < 0 || c < most_fractional))
            most_fractional = c;
        }
      }
      EXPECT_EQ(solution.bound, on_the_distances_step(o, std::ceil(primal - 1e-6)))
          << "seed " << seed << " dive " << dive;
      if (most_fractional < 0) break;
      fixed[most_fractional] = 1;
    }
    ladders += lp.ladders();
    fences += lp.fences();
  }
  EXPECT_GT(closed, 18) << "few closed solves: the dive is barely tested";
  EXPECT_GT(ladders, 0) << "no ladder was added: their rows are untested";
  EXPECT_GT(fences, 0) << "no fence was added: their rows are untested";
}

/// The triangle LP's optimum (with no pair fixed) of a random tournament of n alternatives.
template <class ExecSpace>
kemeny::TriangleLp::Solution triangle_lp_point(const ExecSpace& space, int n, std::uint64_t seed) {
  kemeny::TriangleLp lp(random_tournament(n, 1, seed), separation_on(space));
  return lp.solve(std::vector<signed char>(lp.columns(), -1), 200, 60);
}

/// How far the LP point x violates a cut: the arcs it keeps there less the most a ranking keeps.
inline double cut_violation(const kemeny::Cut& cut, const std::vector<double>& x, int n) {
  const kemeny::CutArcs row = kemeny::cut_arcs(cut);
  double kept = 0;
  for (const auto& [a, b] : row.arcs) kept += kemeny::arc_value(x, n, a, b);
  return kept - row.most_kept;
}

TEST(TEST_CATEGORY, kemeny_ladders_found_at_lp_points_are_violated_and_valid) {
  // At the triangle LP's optimum of weighted tournaments: every ladder found passes the checker's
  // conditions, is violated there by the amount its arcs say, and no ordering keeps more of its
  // arcs than its row allows (the rows are valid: tight or not, never cutting off a ranking).
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  TEST_EXECSPACE space;
  int found = 0, tight = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const int n = 14;
    const auto point = triangle_lp_point(space, n, seed);
    ASSERT_EQ(point.status, kemeny::TriangleLp::Status::closed);
    const std::vector<kemeny::Cut> ladders = kemeny::violated_ladders(point.x, n);
    double most = 1e9;
    for (const kemeny::Cut& cut : ladders) {
      ASSERT_TRUE(cut.ladder);
      EXPECT_TRUE(kemeny::valid_ladder(*cut.ladder, n));
      const kemeny::CutArcs row = kemeny::cut_arcs(cut);
      const double violation = cut_violation(cut, point.x, n);
      EXPECT_GT(violation, 1e-6) << "seed " << seed;
      EXPECT_LE(violation, most + 1e-12) << "most violated first";
      most = violation;
      const int best = most_arcs_kept(row.arcs);
      EXPECT_LE(best, row.most_kept) << "seed " << seed << ": a ranking keeps more arcs than the row allows";
      tight += best == row.most_kept;
      ++found;
    }
  }
  EXPECT_GT(found, 10) << "few ladders found: the search is barely tested";
  EXPECT_GT(tight, 0);
}

/// The violation of a fence at x by its own formula, F less 1 (KemenyFences.hpp), not its arcs.
inline double fence_violation(const std::vector<std::pair<int, int>>& pales, const std::vector<double>& x, int n) {
  double value = -1;
  for (std::size_t i = 0; i < pales.size(); ++i) {
    value += kemeny::arc_value(x, n, pales[i].first, pales[i].second);
    for (std::size_t j = 0; j < pales.size(); ++j)
      value -= i != j ? kemeny::arc_value(x, n, pales[i].first, pales[j].second) : 0;
  }
  return value;
}

TEST(TEST_CATEGORY, kemeny_fence_search_finds_every_violated_three_fence) {
  // At random points over 9 alternatives, each x near 0 or 1 (many fences violated there), the search
  // for 3-fences, unlimited, returns exactly the violated ones among every triple of pales, most
  // violated first, each violated by what its arcs say.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const int n = 9;
    HostRng rng(seed);
    std::vector<double> x(n * n, 0.0);
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) x[a * n + b] = (uniform_unit(rng) < 0.5 ? 0 : 0.8) + 0.2 * uniform_unit(rng);
    using Pales = std::vector<std::pair<int, int>>;
    std::set<Pales> by_hand;
    for (int p = 0; p < n * n; ++p)
      for (int q = p + 1; q < n * n; ++q)
        for (int r = q + 1; r < n * n; ++r) {
          const Pales pales = {{p / n, p % n}, {q / n, q % n}, {r / n, r % n}};
          if (kemeny::valid_fence(kemeny::Fence{pales}, n) && fence_violation(pales, x, n) > 1e-6)
            by_hand.insert(pales);
        }
    ASSERT_GT(by_hand.size(), 10u) << "seed " << seed << ": few violated 3-fences, little to find";
    kemeny::FenceSearch all{3};
    all.most_fences = all.uses_per_pale = 1 << 20;
    std::set<Pales> found;
    double most = 1e9;
    for (const kemeny::Cut& cut : kemeny::violated_fences(x, n, all)) {
      Pales pales = cut.fence->pales;
      const double violation = cut_violation(cut, x, n);
      EXPECT_NEAR(violation, fence_violation(pales, x, n), 1e-9);
      EXPECT_LE(violation, most + 1e-12) << "most violated first";
      most = violation;
      std::sort(pales.begin(), pales.end());
      found.insert(pales);
    }
    EXPECT_EQ(found, by_hand) << "seed " << seed;
  }
}

TEST(TEST_CATEGORY, kemeny_fences_found_at_lp_points_are_violated_and_valid) {
  // At the triangle LP's optimum of tournaments of 24 (where no 3-fence is violated, and larger
  // ones are): every fence found passes the checker's conditions, is violated there, most violated
  // first, and no ordering keeps more of its arcs than its row allows.
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  TEST_EXECSPACE space;
  int found = 0, larger = 0, tight = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const int n = 24;
    const auto point = triangle_lp_point(space, n, seed);
    ASSERT_EQ(point.status, kemeny::TriangleLp::Status::closed);
    double most = 1e9;
    for (const kemeny::Cut& cut : kemeny::violated_fences(point.x, n)) {
      ASSERT_TRUE(cut.fence);
      EXPECT_TRUE(kemeny::valid_fence(*cut.fence, n));
      const kemeny::CutArcs row = kemeny::cut_arcs(cut);
      const double violation = cut_violation(cut, point.x, n);
      EXPECT_GT(violation, 1e-6) << "seed " << seed;
      EXPECT_LE(violation, most + 1e-12) << "most violated first";
      most = violation;
      larger += cut.fence->pales.size() > 3;
      const int best = most_arcs_kept(row.arcs);
      EXPECT_LE(best, row.most_kept) << "seed " << seed << ": a ranking keeps more arcs than the row allows";
      tight += best == row.most_kept;
      ++found;
    }
  }
  EXPECT_GT(found, 10) << "few fences found: the search is barely tested";
  EXPECT_GT(larger, 0) << "no fence of four or more pales: the growth is untested";
  EXPECT_GT(tight, 0);
}

/// Branch and cut with the device's triangle separation (and ladders and fences where `facets`;
/// `root_triangles` triangles a pair at the root), from the best heuristic ranking, with the data
/// reduction's pairs fixed where `reduced`, the root's cuts guided by the best ranking where `guide_root`.
template <class ExecSpace>
kemeny::SearchResult search_on(const kemeny::Counts& o, int list_limit, double max_seconds = 60, bool reduced = false,
                               bool facets = false, int root_triangles = 1, bool guide_root = false) {
  kemeny::Separation separation = separation_on(ExecSpace(), facets, facets, root_triangles);
  separation.guide_root = guide_root;
  return kemeny::branch_and_cut(o, separation, kemeny::best_heuristic(o, 1), list_limit, max_seconds,
                                reduced ? kemeny::pair_columns(kemeny::fixed_pairs(o)) : std::vector<signed char>{});
}

TEST(TEST_CATEGORY, kemeny_branch_and_cut_lists_every_optimum_of_brute_force) {
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  for (int n = 3; n <= 8; ++n) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const auto o =
          seed % 2 == 0
              ? random_tournament(n, 1 + static_cast<int>(seed % 3), seed)
              : preferences::pairwise_reference(random_weak_profile(n, 1 + static_cast<int>(seed % 5), seed, 3));
      const kemeny::BruteForceResult brute = kemeny::brute_force(o);
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      for (const bool reduced : {false, true}) {  // with the reduction's pairs fixed, the same optima
        const kemeny::SearchResult all = search_on<TEST_EXECSPACE>(o, 100000, 60, reduced, reduced);
        ASSERT_TRUE(all.proven()) << what << " reduced=" << reduced;
        EXPECT_EQ(all.distance, brute.distance) << what << " reduced=" << reduced;
        EXPECT_TRUE(all.count_exact) << what << " reduced=" << reduced;
        EXPECT_EQ(all.optima, brute.optima) << what << " reduced=" << reduced;  // both sorted
        EXPECT_EQ(all.count, brute.optima.size()) << what << " reduced=" << reduced;
      }
      // A short list: optima, sorted, and still the whole count.
      const kemeny::SearchResult three = search_on<TEST_EXECSPACE>(o, 3);
      EXPECT_EQ(three.optima.size(), std::min<std::size_t>(3, brute.optima.size())) << what;
      EXPECT_TRUE(std::is_sorted(three.optima.begin(), three.optima.end())) << what;
      for (const auto& ranking : three.optima) EXPECT_EQ(kemeny::distance(o, ranking), brute.distance) << what;
      EXPECT_TRUE(three.count_exact) << what;
      EXPECT_EQ(three.count, brute.optima.size()) << what;
    }
  }
}

TEST(TEST_CATEGORY, kemeny_branch_and_cut_matches_the_dp_where_it_branches) {
  // Weighted tournaments of 20 and 22 alternatives, where the LP bound, rounded to the distances'
  // step, often does not close the root (at 16 it closed all eight tried).
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  TEST_EXECSPACE space;
  int branched = 0;
  for (const auto& [n, m] : std::vector<std::pair<int, int>>{{20, 1}, {22, 1}, {22, 7}}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const auto o = random_tournament(n, m, seed);
      kemeny::Options dp;
      dp.method = kemeny::Method::dp;
      dp.list_limit = 100000;
      const kemeny::Result exact = kemeny::solve(space, o, dp);
      // Odd seeds with three triangles a pair at the root, as auto's search takes; seeds 3 and 4
      // with the root's cuts guided by the best ranking, as above 64 alternatives.
      const kemeny::SearchResult searched =
          search_on<TEST_EXECSPACE>(o, 100000, 60, false, false, seed % 2 == 1 ? 3 : 1, seed >= 3);
      const std::string what = "n=" + std::to_string(n) + " m=" + std::to_string(m) + " seed=" + std::to_string(seed);
      ASSERT_TRUE(searched.proven()) << what;
      EXPECT_EQ(searched.distance, exact.distance) << what;
      EXPECT_TRUE(searched.count_exact) << what;
      EXPECT_EQ(searched.count, exact.count) << what;
      auto expected = exact.optima;
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(searched.optima, expected) << what;
      branched += searched.nodes > 1 ? 1 : 0;
    }
  }
  EXPECT_GE(branched, 3) << "of 12 tournaments, few needed branching: the branching is barely tested";
}

template <class ExecSpace>
void check_auto_by_the_lp_search() {
  // Contested elections (one large Condorcet component): auto with the DP limited to 3 solves it
  // by the LP search, with the DP's optimum, count and rankings.
  ExecSpace space;
  for (const int n : {10, 13, 16}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto o = preferences::pairwise_reference(preferences::mallows_mixture(n, 100, 0.7, seed));
      kemeny::Options dp;
      dp.method = kemeny::Method::dp;
      const kemeny::Result exact = kemeny::solve(space, o, dp);
      kemeny::Options bounded;
      bounded.dp_limit = 3;
      bounded.root_triangles = static_cast<int>(seed);  // 1 to 3 triangles a pair at the root
      const kemeny::Result result = kemeny::solve(space, o, bounded);
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed) + " " + result.method;
      EXPECT_TRUE(result.exact) << what;
      EXPECT_EQ(result.distance, exact.distance) << what;
      EXPECT_EQ(result.lower_bound, exact.distance) << what;
      EXPECT_TRUE(result.count_known) << what;
      EXPECT_EQ(result.count, exact.count) << what;
      auto listed = result.optima, expected = exact.optima;
      std::sort(listed.begin(), listed.end());
      std::sort(expected.begin(), expected.end());
      if (exact.count < 100) EXPECT_EQ(listed, expected) << what;
      ASSERT_EQ(result.component_methods.size(), result.component_sizes.size()) << what;
      const bool by_lp =
          result.method.find("+lp") != std::string::npos || result.method.find("+branch-and-cut") != std::string::npos;
      EXPECT_EQ(by_lp, kemeny::lp_available()) << what;
      if (by_lp) EXPECT_GT(result.reduction_pairs, 0) << what;  // the reduction ran on the searched component
    }
  }
}

TEST(TEST_CATEGORY, kemeny_auto_solves_large_components_by_the_lp_search) {
  check_auto_by_the_lp_search<TEST_EXECSPACE>();
}

TEST(TEST_CATEGORY, kemeny_auto_is_exact_at_every_magnitude) {
  // Contested tournaments of 24 alternatives with doubled counts up to 4, scaled by 10^3, 10^6 and
  // 10^9 (cells below 2^32): the same optimal rankings, the distance scaled exactly, proven by the
  // LP search. A bound taken from the floating-point LP value less a relative margin stops proving
  // once the optimum passes about 10^7. The DP of 24 is kept out by a memory limit: where it fits,
  // auto gives the search only the DP's expected time (milliseconds on a GPU) before the DP.
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  setenv("KOLLECTIVE_MEMORY_LIMIT", "100000000", 1);  // 100 MB
  TEST_EXECSPACE space;
  kemeny::Options options;
  options.dp_limit = 3;
  options.list_limit = 1000;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto base = random_tournament(24, 2, seed);
    const kemeny::Result first = kemeny::solve(space, base, options);
    ASSERT_TRUE(first.exact) << "seed=" << seed;
    for (const std::uint32_t scale : {1000u, 1000000u, 1000000000u}) {
      auto scaled = base;
      for (std::uint32_t& cell : scaled.doubled) cell *= scale;
      const kemeny::Result result = kemeny::solve(space, scaled, options);
      const std::string what = "seed=" + std::to_string(seed) + " scale=" + std::to_string(scale) + " " + result.method;
      EXPECT_TRUE(result.exact) << what;
      EXPECT_EQ(result.method.find("+dp"), std::string::npos) << what;
      EXPECT_EQ(result.distance, first.distance * scale) << what;
      EXPECT_EQ(result.lower_bound, result.distance) << what;
      EXPECT_EQ(result.count, first.count) << what;
      EXPECT_EQ(result.count_known, first.count_known) << what;
      EXPECT_EQ(result.optima, first.optima) << what;
    }
  }
  unsetenv("KOLLECTIVE_MEMORY_LIMIT");
}

TEST(TEST_CATEGORY, kemeny_search_out_of_time_keeps_a_valid_bound) {
  if (!kemeny::lp_available()) GTEST_SKIP() << "built without CLP";
  TEST_EXECSPACE space;
  const auto o = preferences::pairwise_reference(preferences::mallows_mixture(16, 100, 0.7, 2));
  kemeny::Options dp;
  dp.method = kemeny::Method::dp;
  const kemeny::Result exact = kemeny::solve(space, o, dp);
  const kemeny::SearchResult cut_short = search_on<TEST_EXECSPACE>(o, 100, 1e-9);
  EXPECT_FALSE(cut_short.proven());
  EXPECT_FALSE(cut_short.count_exact);
  EXPECT_LE(cut_short.bound, exact.distance);
  EXPECT_GE(cut_short.distance, exact.distance);
  // auto: the DP after all where it fits; else the best ranking with its certified gap.
  kemeny::Options hurried;
  hurried.dp_limit = 3;
  hurried.time_limit = 1e-9;
  const kemeny::Result by_dp = kemeny::solve(space, o, hurried);
  EXPECT_TRUE(by_dp.exact);
  EXPECT_EQ(by_dp.distance, exact.distance);
  EXPECT_NE(by_dp.method.find("+dp"), std::string::npos) << by_dp.method;
  setenv("KOLLECTIVE_MEMORY_LIMIT", "1000", 1);
  const kemeny::Result gap = kemeny::solve(space, o, hurried);
  unsetenv("KOLLECTIVE_MEMORY_LIMIT");
  EXPECT_FALSE(gap.exact);
  EXPECT_EQ(gap.count, 0u);
  EXPECT_LE(gap.lower_bound, exact.distance);
  EXPECT_EQ(gap.component_methods, std::vector<std::string>{"heuristic"});
  // A DP expected to take longer than time_limit (and a second) does not run after the search:
  // 30 alternatives, 2^30 subsets, minutes on a host.
  const auto large = preferences::pairwise_reference(preferences::mallows_mixture(30, 100, 0.7, 1));
  if (kemeny::dp_estimated_seconds(30, !runs_on_host<TEST_EXECSPACE>, space.concurrency()) > 1.0) {
    const kemeny::Result quick = kemeny::solve(space, large, hurried);
    EXPECT_EQ(quick.method.find("+dp"), std::string::npos) << quick.method;
    EXPECT_LE(quick.lower_bound, quick.distance);
  }
}

}  // namespace kollective::test
