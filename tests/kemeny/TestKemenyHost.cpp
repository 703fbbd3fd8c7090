// Kemeny's result check (check_result, run by every solve) on results made by hand: the serial
// reference's passes, and each inconsistency a solver bug could leave is refused. The LP's cuts
// (triangles and Möbius ladders) as the arcs they bound. The iterated local search. The thread
// that runs work beside a device's search.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyFences.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLadders.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/tests/TestHelpers.hpp"
#include "kollective/tests/kemeny/KemenySearchCases.hpp"

namespace kemeny = kollective::kemeny;
using kollective::test::error_of;

namespace {
kemeny::Result exact_from_brute_force(const kemeny::Counts& o) {
  const kemeny::BruteForceResult brute = kemeny::brute_force(o);
  kemeny::Result result;
  result.distance = result.lower_bound = brute.distance;
  result.exact = true;
  result.optima = brute.optima;
  return result;
}
}  // namespace

TEST(kemeny_result_check, refuses_rankings_that_do_not_score_the_distance) {
  const kemeny::Counts o = kollective::preferences::pairwise_reference(kollective::test::random_weak_profile(6, 9, 3));
  const kemeny::Result good = exact_from_brute_force(o);
  EXPECT_EQ(error_of([&] { kemeny::check_result(o, good); }), "");

  kemeny::Result shifted = good;
  shifted.distance += 2;
  shifted.lower_bound = shifted.distance;
  EXPECT_NE(error_of([&] { kemeny::check_result(o, shifted); }).find("scores"), std::string::npos);

  kemeny::Result repeated = good;
  repeated.optima.front()[1] = repeated.optima.front()[0];
  EXPECT_NE(error_of([&] { kemeny::check_result(o, repeated); }).find("repeats"), std::string::npos);

  kemeny::Result short_ranking = good;
  short_ranking.optima.front().pop_back();
  EXPECT_NE(error_of([&] { kemeny::check_result(o, short_ranking); }).find("ranking of 5 of 6"), std::string::npos);

  kemeny::Result loose = good;
  loose.lower_bound = good.distance - 1;  // an exact result whose bound is not its distance
  EXPECT_NE(error_of([&] { kemeny::check_result(o, loose); }).find("bound"), std::string::npos);
  loose.exact = false;
  EXPECT_EQ(error_of([&] { kemeny::check_result(o, loose); }), "");
}

TEST(kemeny_cuts, triangles_and_ladders_as_arcs) {
  // A triangle inequality bounds the arcs of its dicycle: i -> j -> k (upper), else i -> k -> j.
  using Arcs = std::vector<std::pair<int, int>>;
  const kemeny::CutArcs upper = kemeny::cut_arcs(kemeny::Cut{{1, 4, 6, true}, nullptr});
  const kemeny::CutArcs lower = kemeny::cut_arcs(kemeny::Cut{{1, 4, 6, false}, nullptr});
  EXPECT_EQ(upper.arcs, (Arcs{{1, 4}, {4, 6}, {6, 1}}));
  EXPECT_EQ(lower.arcs, (Arcs{{1, 6}, {6, 4}, {4, 1}}));
  EXPECT_EQ(upper.most_kept, 2);
  EXPECT_EQ(lower.most_kept, 2);
  // The 3-fence (three 4-dicycles through the pales 0-3, 1-4, 2-5) and a ladder of five cycles:
  // every ordering of 6 keeps at most most_kept of their arcs, and some keeps that many.
  const std::vector<kemeny::Ladder> ladders = {
      kemeny::Ladder{{{0, 3, 1, 4}, {1, 4, 2, 5}, {2, 5, 0, 3}}},
      kemeny::Ladder{{{0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 5}, {4, 5, 0, 1}}}};
  const std::vector<std::size_t> arcs = {9, 11};
  const std::vector<int> most = {7, 8};
  for (std::size_t l = 0; l < ladders.size(); ++l) {
    const kemeny::CutArcs row = kemeny::cut_arcs(kemeny::Cut{{}, std::make_shared<const kemeny::Ladder>(ladders[l])});
    EXPECT_EQ(row.arcs.size(), arcs[l]);
    EXPECT_EQ(row.most_kept, most[l]);
    EXPECT_EQ(kollective::test::most_arcs_kept(row.arcs), row.most_kept);
  }
}

TEST(kemeny_cuts, ladders_valid_under_the_checkers_conditions) {
  // The conditions of python/kollective/certificate.py's ladder_row, case by case.
  using Cycles = std::vector<std::vector<int>>;
  auto valid = [](const Cycles& cycles, int n = 8) { return kemeny::valid_ladder(kemeny::Ladder{cycles}, n); };
  EXPECT_TRUE(valid({{0, 3, 1, 4}, {1, 4, 2, 5}, {2, 5, 0, 3}}));                  // the 3-fence
  EXPECT_TRUE(valid({{0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 5}, {4, 5, 0, 1}}));  // five cycles
  EXPECT_TRUE(valid({{0, 1, 2}}));                                                 // one: a triangle
  EXPECT_FALSE(valid({{0, 1, 2}, {1, 2, 3}}));                                     // an even number
  EXPECT_FALSE(valid({{0, 3, 1, 4}, {1, 4, 2, 5}, {2, 5, 0, 3}}, 5));              // an alternative out of range
  EXPECT_FALSE(valid({{0, 1, 1}, {1, 2, 3}, {2, 3, 4}}));                          // a repeated alternative
  EXPECT_FALSE(valid({{0, 1}, {1, 2, 3}, {2, 3, 0}}));                             // a cycle of two
  EXPECT_FALSE(valid({{0, 1, 2, 3, 4}, {1, 2, 5}, {2, 5, 6}}));                    // a cycle of five
  EXPECT_FALSE(valid({{0, 1, 2}, {3, 4, 5}, {5, 6, 0}}));                          // consecutive ones share none
  EXPECT_FALSE(valid({{0, 1, 2}, {0, 1, 2}, {2, 3, 4}}));                          // consecutive ones share three
  // Cycles 0 and 3 share the arc 0 -> 3, not consecutive among five (each arc in two cycles at most).
  EXPECT_FALSE(valid({{3, 4, 2, 0}, {6, 3, 4, 5}, {5, 2, 6, 3}, {0, 3, 5, 1}, {2, 1, 0, 4}}));
  EXPECT_FALSE(valid({{0, 1, 2}, {1, 2, 3}, {3, 1, 2}}));  // 1 -> 2 in three cycles
}

TEST(kemeny_cuts, fences_as_arcs) {
  // A fence of t pales: t pales and t (t - 1) crosses, of which every ordering keeps at most
  // t^2 - t + 1 and some keeps that many (the row is valid and tight), t = 3, 4 and 5.
  using Pales = std::vector<std::pair<int, int>>;
  const std::vector<Pales> fences = {
      {{0, 3}, {1, 4}, {2, 5}}, {{6, 1}, {0, 7}, {2, 4}, {5, 3}}, {{0, 5}, {1, 6}, {2, 7}, {3, 8}, {4, 9}}};
  for (const Pales& pales : fences) {
    const int t = static_cast<int>(pales.size());
    const kemeny::CutArcs row =
        kemeny::cut_arcs(kemeny::Cut{{}, nullptr, std::make_shared<const kemeny::Fence>(kemeny::Fence{pales})});
    EXPECT_EQ(row.arcs.size(), static_cast<std::size_t>(t * t)) << "t = " << t;
    EXPECT_EQ(row.most_kept, t * t - t + 1) << "t = " << t;
    EXPECT_EQ(kollective::test::most_arcs_kept(row.arcs), row.most_kept) << "t = " << t;
  }
  // The 3-fence is the ladder of three 4-dicycles through its pales: the same arcs, the same bound.
  auto fence =
      kemeny::cut_arcs(kemeny::Cut{{}, nullptr, std::make_shared<const kemeny::Fence>(kemeny::Fence{fences[0]})});
  auto ladder = kemeny::cut_arcs(kemeny::Cut{
      {}, std::make_shared<const kemeny::Ladder>(kemeny::Ladder{{{0, 3, 1, 4}, {1, 4, 2, 5}, {2, 5, 0, 3}}})});
  std::sort(fence.arcs.begin(), fence.arcs.end());
  std::sort(ladder.arcs.begin(), ladder.arcs.end());
  EXPECT_EQ(fence.arcs, ladder.arcs);
  EXPECT_EQ(fence.most_kept, ladder.most_kept);
}

TEST(kemeny_cuts, fences_valid_under_the_checkers_conditions) {
  // The conditions of python/kollective/certificate.py's fence_row, case by case.
  auto valid = [](const std::vector<std::pair<int, int>>& pales, int n = 8) {
    return kemeny::valid_fence(kemeny::Fence{pales}, n);
  };
  EXPECT_TRUE(valid({{0, 3}, {1, 4}, {2, 5}}));
  EXPECT_TRUE(valid({{7, 1}, {0, 6}, {2, 4}, {5, 3}}));
  EXPECT_FALSE(valid({{0, 3}, {1, 4}}));           // two pales: a 4-dicycle, not a fence
  EXPECT_FALSE(valid({{0, 3}, {1, 4}, {2, 3}}));   // an alternative in two pales
  EXPECT_FALSE(valid({{0, 3}, {1, 4}, {2, 2}}));   // a pale from an alternative to itself
  EXPECT_FALSE(valid({{0, 3}, {1, 4}, {2, 8}}));   // out of range
  EXPECT_FALSE(valid({{0, 3}, {1, 4}, {-1, 5}}));  // negative
}

// The iterated local search (the anytime answer of components too large for branch and cut) on
// tournaments of 18, against the subset DP's optimum: it reaches the optimum from Borda's ranking
// where one descent of local search stops above it, never ends worse than its start, and repeats
// itself under a round limit.
TEST(kemeny_heuristics, iterated_local_search_reaches_the_optimum_where_one_descent_does_not) {
  int beyond_one_descent = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto [o, optimum, start] = kollective::test::search_case(seed);
    kemeny::SearchLimits limits;
    limits.rounds = 3000;
    const kemeny::Ranking found = kemeny::iterated_local_search(o, start, limits, seed);
    ASSERT_TRUE(kollective::test::is_ranking(found, o.alternatives)) << "seed " << seed;
    EXPECT_EQ(kemeny::distance(o, found), optimum) << "seed " << seed;
    EXPECT_LE(kemeny::distance(o, found), kemeny::distance(o, start)) << "seed " << seed;
    EXPECT_EQ(kemeny::iterated_local_search(o, start, limits, seed), found) << "seed " << seed;
    if (kemeny::distance(o, kemeny::local_search(o, start)) > optimum) ++beyond_one_descent;
  }
  EXPECT_GE(beyond_one_descent, 2);  // the test tells the search from one descent
}

// After an unproven branch and cut (above split_time_alternatives, with a time limit), the
// search improves its ranking down to the optimum above the bound, keeps the bound, and leaves a
// ranking alone where the only better one lies at the bound (an optimum with no proof kept).
TEST(kemeny_heuristics, search_after_branch_and_cut_improves_above_the_bound_only) {
  const auto [o, optimum, start] = kollective::test::search_case(4);
  kemeny::Options options;
  const std::uint64_t from = kemeny::distance(o, start);
  ASSERT_GT(from, optimum);
  for (const std::uint64_t bound : {optimum - 1, optimum}) {
    kemeny::SearchResult searched;
    searched.optima = {start};
    searched.distance = from;
    searched.bound = bound;
    kemeny::Impl::search_after_branch_and_cut(o, options, 5.0, searched);
    EXPECT_EQ(searched.bound, bound);
    EXPECT_EQ(kemeny::distance(o, searched.optima.front()), searched.distance);
    EXPECT_EQ(searched.distance, bound < optimum ? optimum : from) << "bound " << bound;
  }
}

// The memetic search on the same tournaments: the optimum, never worse than its start, the same
// ranking again under a round limit; and an optimal start, with the optimum as its floor, comes
// back as it was.
TEST(kemeny_heuristics, memetic_search_reaches_the_optimum_where_one_descent_does_not) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto [o, optimum, start] = kollective::test::search_case(seed);
    kemeny::SearchLimits limits;
    limits.rounds = 200;
    const kemeny::Ranking found = kemeny::memetic_search(o, start, limits, seed, 20);
    ASSERT_TRUE(kollective::test::is_ranking(found, o.alternatives)) << "seed " << seed;
    EXPECT_EQ(kemeny::distance(o, found), optimum) << "seed " << seed;
    EXPECT_EQ(kemeny::memetic_search(o, start, limits, seed, 20), found) << "seed " << seed;
    limits.floor = optimum;
    EXPECT_EQ(kemeny::memetic_search(o, found, limits, seed + 1, 20), found) << "seed " << seed;
  }
}

// With no other limit, the host's searches run until `stop` is set (by a search beside them that
// proved the optimum): they end then, with a ranking no worse than their start.
TEST(kemeny_heuristics, host_searches_end_when_stopped) {
  const kollective::test::SearchCase tested = kollective::test::search_case(2);
  const kemeny::Counts& o = tested.o;  // named, not bound: lambdas may not capture a binding before C++20
  const kemeny::Ranking& start = tested.start;
  std::atomic<bool> stop{false};
  kemeny::SearchLimits limits;
  limits.stop = &stop;
  const std::function<kemeny::Ranking()> searches[] = {
      [&] { return kemeny::iterated_local_search(o, start, limits, 3); },
      [&] { return kemeny::memetic_search(o, start, limits, 3, 20); }};
  for (const auto& search : searches) {
    stop = false;
    std::thread stopper([&stop] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      stop = true;
    });
    const kemeny::Ranking found = search();
    stopper.join();
    ASSERT_TRUE(kollective::test::is_ranking(found, o.alternatives));
    EXPECT_LE(kemeny::distance(o, found), kemeny::distance(o, start));
  }
}

// BesideThread (on a device, the LP and the chains beside the memetic search): what its work
// throws reaches join(); destroyed before join() (the search beside it threw), it abandons its
// work at the next interruption point and waits for it.
TEST(kemeny_beside_thread, join_rethrows_and_destruction_abandons_the_work) {
  kemeny::Impl::BesideThread failing([] { throw std::runtime_error("the work failed"); });
  EXPECT_THROW(failing.join(), std::runtime_error);
  std::atomic<bool> ended{false};
  {
    kemeny::Impl::BesideThread endless([&ended] {
      struct MarkEnded {
        std::atomic<bool>& ended;
        ~MarkEnded() { ended = true; }
      } mark{ended};
      while (true) {
        kollective::Impl::interruption_point();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(ended);
  }
  EXPECT_TRUE(ended);
}
