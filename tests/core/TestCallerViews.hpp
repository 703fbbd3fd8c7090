// The public entry points on a caller's Views (any layout, const, other value types, device
// memory) give what the same problems give through the library's host structs, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmReference.hpp"
#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

/// The counts in a column-major View of `Value` in ExecSpace's memory, returned const.
template <class ExecSpace, class Value>
Kokkos::View<const Value**, Kokkos::LayoutLeft, typename ExecSpace::memory_space> column_major(
    const preferences::PairwiseCounts& counts) {
  const int n = counts.alternatives;
  Kokkos::View<Value**, Kokkos::LayoutLeft, typename ExecSpace::memory_space> view("doubled", n, n);
  auto host = Kokkos::create_mirror_view(view);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) host(i, j) = static_cast<Value>(counts.at(i, j));
  }
  Kokkos::deep_copy(view, host);
  return view;
}

/// Runs `solve` with stdout and stderr captured; returns what it printed.
template <class Solve>
std::string printed_by(const Solve& solve) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  solve();
  return testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
}

TEST(TEST_CATEGORY, caller_views_schulze) {
  TEST_EXECSPACE space;
  const auto counts = preferences::pairwise_reference(random_weak_profile(70, 200, 5));
  schulze::Options options;
  options.keep_paths = true;
  const auto expected = schulze::solve(space, preferences::to_device(space, counts), options);
  schulze::Result left;
  EXPECT_EQ(
      printed_by([&] { left = schulze::solve(space, column_major<TEST_EXECSPACE, std::uint32_t>(counts), options); }),
      "");
  EXPECT_EQ(left.winners, expected.winners);
  EXPECT_EQ(left.paths, expected.paths);
  const auto narrow = schulze::solve(space, column_major<TEST_EXECSPACE, std::uint16_t>(counts), options);
  EXPECT_EQ(narrow.paths, expected.paths);
  Kokkos::View<std::uint32_t**, typename TEST_EXECSPACE::memory_space> oblong("oblong", 3, 4);
  EXPECT_NE(error_of([&] { schulze::solve(space, oblong); }).find("3 x 4, not square"), std::string::npos);
  Kokkos::View<std::uint32_t**, typename TEST_EXECSPACE::memory_space> none("none", 0, 0);
  EXPECT_NE(error_of([&] { schulze::solve(space, none); }).find("0 x 0: an election needs an alternative"),
            std::string::npos);
  EXPECT_NE(error_of([&] { kemeny::solve(space, none); }).find("0 x 0: an election needs an alternative"),
            std::string::npos);
  const auto no_paths = schulze::solve(space, preferences::to_device(space, counts));
  EXPECT_NE(error_of([&] { no_paths.path(0, 1); }).find("kept no paths"), std::string::npos);
  EXPECT_NE(error_of([&] { left.path(0, counts.alternatives); }).find("alternatives are 0..69"), std::string::npos);
  EXPECT_EQ(left.path(0, 1), expected.paths[1]);
}

TEST(TEST_CATEGORY, caller_views_schulze_paths_out) {
  // The paths into the caller's column-major View in the space's memory, for both strength widths.
  TEST_EXECSPACE space;
  const auto counts = preferences::pairwise_reference(random_weak_profile(70, 200, 6));
  const int n = counts.alternatives;
  const auto doubled = column_major<TEST_EXECSPACE, std::uint32_t>(counts);
  for (const auto bits : {schulze::StrengthBits::bits32, schulze::StrengthBits::bits16}) {
    schulze::Options options;
    options.strength_bits = bits;
    options.keep_paths = true;
    const auto expected = schulze::solve(space, doubled, options);
    options.keep_paths = false;
    Kokkos::View<std::uint32_t**, Kokkos::LayoutLeft, typename TEST_EXECSPACE::memory_space> paths("paths", n, n);
    const auto found = schulze::solve(space, doubled, paths, options);
    EXPECT_TRUE(found.paths.empty());  // not copied to the host unless asked for
    EXPECT_EQ(found.winners, expected.winners);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), paths);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) ASSERT_EQ(host(i, j), expected.path(i, j)) << i << " " << j;
    }
  }
  Kokkos::View<std::uint32_t**, typename TEST_EXECSPACE::memory_space> small("small", n, n - 1);
  EXPECT_NE(error_of([&] { schulze::solve(space, doubled, small); }).find("the paths View is 70 x 69"),
            std::string::npos);
}

TEST(TEST_CATEGORY, caller_views_kemeny) {
  TEST_EXECSPACE space;
  const auto counts = preferences::pairwise_reference(random_weak_profile(9, 30, 8));
  const auto expected = kemeny::solve(space, counts);
  kemeny::Result found;
  EXPECT_EQ(printed_by([&] { found = kemeny::solve(space, column_major<TEST_EXECSPACE, std::uint32_t>(counts)); }), "");
  EXPECT_TRUE(found.exact);
  EXPECT_EQ(found.distance, expected.distance);
  EXPECT_EQ(found.optima, expected.optima);
  EXPECT_EQ(found.count, expected.count);
  kemeny::Options options;  // the library checks its options itself
  options.list_limit = 0;
  EXPECT_NE(error_of([&] { kemeny::solve(space, counts, options); }).find("kemeny: list_limit must be in 1..1000000"),
            std::string::npos);
}

TEST(TEST_CATEGORY, caller_views_coalition) {
  TEST_EXECSPACE space;
  coalition::Game game = coalition::uniform_game(11, 4);
  for (double& value : game.values) value = static_cast<float>(value);  // what a float View holds
  Kokkos::View<float*, typename TEST_EXECSPACE::memory_space> values("values", game.values.size());
  auto host = Kokkos::create_mirror_view(values);
  for (std::size_t mask = 0; mask < game.values.size(); ++mask) host(mask) = static_cast<float>(game.values[mask]);
  Kokkos::deep_copy(values, host);
  const auto expected = coalition::solve(space, game);
  const auto found = coalition::solve(space, Kokkos::View<const float*, typename TEST_EXECSPACE::memory_space>(values));
  EXPECT_EQ(found.value, expected.value);
  EXPECT_EQ(found.structure, expected.structure);
  const auto odd = Kokkos::subview(values, std::make_pair(0, 1000));
  EXPECT_NE(error_of([&] { coalition::solve(space, odd); }).find("1000 values are not 2^n"), std::string::npos);
}

TEST(TEST_CATEGORY, workspaces_are_reused_and_give_the_same_answers) {
  // One workspace through solves of the same shape (kept) and of others (freed, allocated anew).
  TEST_EXECSPACE space;
  using Memory = typename TEST_EXECSPACE::memory_space;
  Workspace<Memory> paths_workspace;
  const unsigned char* held = nullptr;
  for (const auto& [n, seed] : std::vector<std::pair<int, std::uint64_t>>{{70, 1}, {70, 2}, {40, 3}, {70, 4}}) {
    const auto counts = preferences::pairwise_reference(random_weak_profile(n, 100, seed));
    const auto doubled = preferences::to_device(space, counts);
    schulze::Options options;
    options.keep_paths = true;
    const auto expected = schulze::solve(space, doubled, options);
    const auto found = schulze::solve(space, doubled, options, paths_workspace);
    EXPECT_EQ(found.paths, expected.paths) << n << " " << seed;
    EXPECT_EQ(found.winners, expected.winners) << n << " " << seed;
    const auto* now = paths_workspace.template segment<unsigned char>(0).data();
    if (seed == 2) EXPECT_EQ(now, held) << "a solve of the same shape reuses the buffers";
    held = now;
  }
  Workspace<Memory> table_workspace;
  for (const auto& [n, seed] : std::vector<std::pair<int, std::uint64_t>>{{11, 1}, {11, 2}, {9, 3}}) {
    const coalition::Game game = coalition::uniform_game(n, seed);
    for (const auto method : {coalition::Method::dp, coalition::Method::idp}) {
      coalition::Options options;
      options.method = method;
      options.precision = Precision::float32;
      const auto expected = coalition::solve(space, game, options);
      const auto found = coalition::solve(space, game, options, table_workspace);
      EXPECT_EQ(found.value, expected.value) << n << " " << seed;
      EXPECT_EQ(found.structure, expected.structure) << n << " " << seed;
      EXPECT_GT(table_workspace.bytes(), 0u);
    }
  }
  Workspace<Memory> training_workspace;  // a sweep over C (kept), then another set (reshaped)
  const ranksvm::RankData first = ranksvm::synthetic_letor("mq2007", 12, 300, 6, 1);
  const ranksvm::RankData second = ranksvm::synthetic_letor("mq2007", 9, 200, 5, 2);
  for (const auto& [data, C] : std::vector<std::pair<const ranksvm::RankData*, double>>{
           {&first, 1.0}, {&first, 0.1}, {&second, 1.0}, {&first, 10.0}}) {
    for (const bool single : {false, true}) {
      ranksvm::Options options;
      options.C = C;
      options.precision = single ? Precision::float32 : Precision::float64;
      const auto expected = ranksvm::train(space, *data, options);
      const auto found = ranksvm::train(space, *data, options, training_workspace);
      EXPECT_EQ(found.w, expected.w) << "C=" << C << (single ? " float" : " double");  // bit for bit
      EXPECT_EQ(found.objective, expected.objective) << "C=" << C;
    }
  }
}

TEST(TEST_CATEGORY, caller_views_ranksvm) {
  TEST_EXECSPACE space;
  const ranksvm::RankData data = ranksvm::synthetic_letor("mslr", 30, 600, 5, 9);
  // The documents in reverse (queries come ungrouped: descending qid), X column-major, labels and
  // query ids as int.
  const std::int64_t docs = data.docs;
  Kokkos::View<double**, Kokkos::LayoutLeft, typename TEST_EXECSPACE::memory_space> x("x", docs, data.features);
  Kokkos::View<int*, typename TEST_EXECSPACE::memory_space> y("y", docs), qid("qid", docs);
  auto x_host = Kokkos::create_mirror_view(x);
  auto y_host = Kokkos::create_mirror_view(y);
  auto qid_host = Kokkos::create_mirror_view(qid);
  std::vector<double> rows(docs * data.features), labels(docs);
  std::vector<std::int64_t> qids(docs);
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) {
      const std::int64_t k = docs - 1 - d;
      for (int f = 0; f < data.features; ++f)
        rows[k * data.features + f] = x_host(k, f) = data.x[d * data.features + f];
      labels[k] = y_host(k) = static_cast<int>(data.labels[d]);
      qids[k] = qid_host(k) = static_cast<int>(q);
    }
  }
  Kokkos::deep_copy(x, x_host);
  Kokkos::deep_copy(y, y_host);
  Kokkos::deep_copy(qid, qid_host);
  ranksvm::Options options;
  const auto grouped = ranksvm::group_by_query(rows.data(), data.features, labels.data(), qids.data(), docs, false);
  const auto expected = ranksvm::train(space, grouped, options);
  std::vector<std::string> log;  // TRON's lines go to the caller's function, one per iteration
  options.reporter.log = [&](const std::string& line) { log.push_back(line); };
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const auto found = ranksvm::train(space, x, y, qid, options);
  EXPECT_EQ(testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr(), "");
  EXPECT_TRUE(found.converged);
  EXPECT_EQ(found.w, expected.w);
  EXPECT_EQ(ranksvm::verify(grouped, options, found), "pair reference");  // the driver's `verify`
  auto tampered = found;
  tampered.objective *= 1.0001;
  EXPECT_NE(error_of([&] { ranksvm::verify(grouped, options, tampered); }).find("the pair reference's"),
            std::string::npos);
  ASSERT_GE(log.size(), static_cast<std::size_t>(found.iterations));
  EXPECT_EQ(log.front().rfind("tron iter   1", 0), 0u) << log.front();
  options.eps = 2;
  EXPECT_NE(error_of([&] { ranksvm::train(space, x, y, qid, options); }).find("eps must be in (0, 1)"),
            std::string::npos);
}

TEST(TEST_CATEGORY, host_forms_are_checked) {
  // The host structs a caller fills by hand: what disagrees is named, nothing is read past its end.
  TEST_EXECSPACE space;
  coalition::Game game = coalition::uniform_game(5, 1);
  for (const std::uint64_t at : {std::uint64_t{7}, std::uint64_t{31}}) {  // 31: the grand coalition
    game.values = coalition::uniform_game(5, 1).values;
    game.values[at] = std::nan("");
    for (const auto method :
         {coalition::Method::dp, coalition::Method::idp, coalition::Method::ip, coalition::Method::automatic}) {
      coalition::Options options;
      options.method = method;
      EXPECT_NE(error_of([&] {
                  coalition::solve(space, game, options);
                }).find("v(" + std::to_string(at) + ") = nan is not finite"),
                std::string::npos)
          << coalition::to_string(method);
    }
  }
  game.values[7] = 1;
  game.values[0] = 5;
  EXPECT_NE(error_of([&] { coalition::solve(space, game); }).find("v(empty) must be 0, got 5"), std::string::npos);
  EXPECT_NE(error_of([&] { coalition::solve(space, coalition::Values(5, nullptr)); }).find("null pointer"),
            std::string::npos);
  auto counts = preferences::pairwise_reference(random_weak_profile(5, 20, 2));
  counts.names.clear();
  EXPECT_NE(error_of([&] { kemeny::solve(space, counts); }).find("kemeny::solve: 0 names for 5 alternatives"),
            std::string::npos);
  counts.names = {"a", "b", "c", "d", "e"};
  counts.doubled.resize(9);
  EXPECT_NE(error_of([&] { kemeny::solve(space, counts); }).find("9 doubled counts for 5 alternatives"),
            std::string::npos);
  EXPECT_NE(error_of([&] { preferences::to_device(space, counts); }).find("9 doubled counts"), std::string::npos);
  const ranksvm::RankData data = ranksvm::synthetic_letor("mq2007", 4, 40, 3, 1);
  auto broken = data;
  broken.query_begin.back() = 1000;
  EXPECT_NE(error_of([&] { ranksvm::train(space, broken, {}); }).find("query_begin must hold"), std::string::npos);
  broken = data;
  broken.labels.pop_back();
  EXPECT_NE(error_of([&] { ranksvm::train(space, broken, {}); }).find("39 labels for 40 documents"), std::string::npos);
  broken = data;
  broken.labels[3] = 40;
  EXPECT_NE(error_of([&] { ranksvm::train(space, broken, {}); }).find("labels[3] = 40 is not an integer grade"),
            std::string::npos);
  broken = data;
  broken.x.resize(10);
  EXPECT_NE(error_of([&] { ranksvm::train(space, broken, {}); }).find("x holds 10 values for 40 documents"),
            std::string::npos);
}

/// What kernels (and View initializations) `work` launched: each one's name and Kokkos Tools
/// device id (execution space type and instance), recorded through Tools callbacks.
class KernelsLaunched {
 public:
  template <class Work>
  static std::vector<std::pair<std::string, std::uint32_t>> by(const Work& work) {
    namespace tools = Kokkos::Tools::Experimental;
    Kokkos::fence();
    launched().clear();
    const auto kept = tools::get_callbacks();
    tools::set_begin_parallel_for_callback(&record);
    tools::set_begin_parallel_reduce_callback(&record);
    tools::set_begin_parallel_scan_callback(&record);
    work();
    Kokkos::fence();
    tools::set_callbacks(kept);
    return launched();
  }

 private:
  static std::vector<std::pair<std::string, std::uint32_t>>& launched() {
    static std::vector<std::pair<std::string, std::uint32_t>> kernels;
    return kernels;
  }
  static void record(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
    launched().emplace_back(name, device_id);
    *kernel_id = 0;
  }
};

/// The kernels of `work` that ran anywhere but the caller's `space`: on another instance of its
/// type, or on another type where `space` runs on the host (a Serial solve must not use OpenMP; a
/// device solve may work on the default host space).
template <class ExecSpace, class Work>
std::string kernels_off(const ExecSpace& space, const Work& work) {
  namespace tools = Kokkos::Tools::Experimental;
  const std::uint32_t caller = tools::device_id(space);
  const auto caller_type = tools::identifier_from_devid(caller).type;
  const bool host_caller = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  std::string off;
  for (const auto& [name, id] : KernelsLaunched::by(work)) {
    const bool same_type = tools::identifier_from_devid(id).type == caller_type;
    if (same_type ? id != caller : host_caller) off += name + " (device id " + std::to_string(id) + ")\n";
  }
  return off;
}

TEST(TEST_CATEGORY, kernels_run_on_the_callers_space) {
  // Every kernel and every View initialization of a solve on the caller's instance (a stream of
  // its own on a GPU; Serial, not the default host space, for a Serial caller).
  const TEST_EXECSPACE space = Kokkos::Experimental::partition_space(TEST_EXECSPACE(), 1)[0];
  using Memory = typename TEST_EXECSPACE::memory_space;
  const auto election = preferences::pairwise_reference(random_weak_profile(24, 60, 3));
  const auto doubled = column_major<TEST_EXECSPACE, std::uint32_t>(election);
  EXPECT_EQ(kernels_off(space, [&] { schulze::solve(space, doubled); }), "") << "schulze";
  schulze::Options keep;
  keep.keep_paths = true;
  EXPECT_EQ(kernels_off(space, [&] { schulze::solve(space, doubled, keep); }), "") << "schulze, paths kept";
  const auto small = preferences::pairwise_reference(random_weak_profile(9, 30, 8));
  for (const auto method : {kemeny::Method::automatic, kemeny::Method::dp, kemeny::Method::enumeration}) {
    kemeny::Options options;
    options.method = method;
    EXPECT_EQ(kernels_off(space, [&] { kemeny::solve(space, small, options); }), "")
        << "kemeny " << kemeny::to_string(method) << ", 9 alternatives";
  }
  kemeny::Options heuristic;
  heuristic.method = kemeny::Method::heuristic;
  for (const auto& options : {kemeny::Options{}, heuristic}) {
    EXPECT_EQ(kernels_off(space, [&] { kemeny::solve(space, doubled, options); }), "")
        << "kemeny " << kemeny::to_string(options.method) << ", 24 alternatives";
  }
  const coalition::Game game = coalition::uniform_game(11, 4);
  for (const auto method :
       {coalition::Method::dp, coalition::Method::idp, coalition::Method::ip, coalition::Method::automatic}) {
    coalition::Options options;
    options.method = method;
    EXPECT_EQ(kernels_off(space, [&] { coalition::solve(space, game, options); }), "")
        << "coalition " << coalition::to_string(method);
  }
  Kokkos::View<double*, Memory> values("values", game.values.size());
  Kokkos::deep_copy(values, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                game.values.data(), game.values.size()));
  EXPECT_EQ(kernels_off(space, [&] { coalition::solve(space, values); }), "") << "coalition on a View";
  const ranksvm::RankData data = ranksvm::synthetic_letor("mq2007", 12, 300, 6, 1);
  for (const bool single : {false, true}) {
    ranksvm::Options options;
    options.precision = single ? Precision::float32 : Precision::float64;
    EXPECT_EQ(kernels_off(space, [&] { ranksvm::train(space, data, options); }), "")
        << "ranksvm" << (single ? " float" : "");
  }
}

/// Thrown by the interrupting check below.
struct Interrupted {};

TEST(TEST_CATEGORY, a_solve_ends_at_an_interruption_point) {
  // Each solver calls the thread's InterruptCheck while it runs; an exception thrown from it ends
  // the solve and reaches the caller, and the same solve afterwards gives the same answer.
  TEST_EXECSPACE space;
  // Schulze checks after every 16th block of 64 pivots: 17 blocks.
  const auto doubled = preferences::to_device(space, random_tournament(17 * 64, 20, 5));
  const auto tournament = random_tournament(16, 100, 3);
  kemeny::Options dp;
  dp.method = kemeny::Method::dp;
  kemeny::Ranking start(16);
  std::iota(start.begin(), start.end(), 0);
  kemeny::SearchLimits rounds;
  rounds.rounds = 100;
  const coalition::Game game = coalition::uniform_game(12, 4);
  coalition::Options ip;
  ip.method = coalition::Method::ip;
  const ranksvm::RankData data = ranksvm::synthetic_letor("mq2007", 12, 300, 6, 1);
  const std::vector<std::pair<std::string, std::function<std::string()>>> solves = {
      {"schulze", [&] { return testing::PrintToString(schulze::solve(space, doubled).winners); }},
      {"kemeny auto", [&] { return testing::PrintToString(kemeny::solve(space, tournament).optima); }},
      {"kemeny dp", [&] { return testing::PrintToString(kemeny::solve(space, tournament, dp).optima); }},
      // The host's chains run in a parallel region, which an exception must not leave.
      {"kemeny local search",
       [&] { return testing::PrintToString(kemeny::iterated_local_search(tournament, start, rounds, 1)); }},
      {"kemeny memetic search",
       [&] { return testing::PrintToString(kemeny::memetic_search(tournament, start, rounds, 1, 4)); }},
      {"coalition dp", [&] { return testing::PrintToString(coalition::solve(space, game).structure); }},
      {"coalition ip", [&] { return testing::PrintToString(coalition::solve(space, game, ip).structure); }},
      {"ranksvm", [&] { return testing::PrintToString(ranksvm::train(space, data, ranksvm::Options{}).w); }},
  };
  for (const auto& [name, solve] : solves) {
    int calls = 0;
    std::string answer;
    {
      InterruptCheck counting([&] { ++calls; });
      answer = solve();
    }
    EXPECT_GT(calls, 0) << name << " has no interruption point";
    bool ended = false;
    {
      InterruptCheck interrupting([] { throw Interrupted{}; });
      try {
        solve();
      } catch (const Interrupted&) {
        ended = true;
      }
    }
    EXPECT_TRUE(ended) << name << " was not interrupted";
    EXPECT_EQ(solve(), answer) << name << " after an interrupted solve";
  }
  int outer = 0;
  InterruptCheck counting([&] { ++outer; });
  {
    InterruptCheck none(nullptr);
    schulze::solve(space, doubled);
  }
  EXPECT_EQ(outer, 0) << "an inner check replaces the outer one";
  schulze::solve(space, doubled);
  EXPECT_GT(outer, 0) << "the outer check comes back after the inner one";
}

}  // namespace kollective::test
