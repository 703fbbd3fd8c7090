// Exact Kemeny: the seed's enumeration of n! rankings (rankings/s) and the subset DP
// (subsets/s = 2^n / t), inputs from the seed's benchmark generator; and `auto` on the elections
// of configs/kemeny_lp.yaml. Manual, fenced time.
#include <benchmark/benchmark.h>

#include <cmath>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/KemenyIO.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/preferences/Generators.hpp"

namespace {

namespace prefs = kollective::preferences;
namespace kemeny = kollective::kemeny;
using Space = Kokkos::DefaultExecutionSpace;
constexpr bool host = kollective::runs_on_host<Space>;

void run(benchmark::State& state, kemeny::Method method, double work) {
  const int n = static_cast<int>(state.range(0));
  const auto o = prefs::pairwise_reference(prefs::kemeny_benchmark(n, 1001, 1));
  kemeny::Options options;
  options.method = method;
  options.list_limit = 1;
  Space space;
  double total = 0;
  for (auto _ : state) {
    const double seconds =
        kollective::time_fenced(space, [&] { benchmark::DoNotOptimize(kemeny::solve(space, o, options)); });
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters[method == kemeny::Method::enumeration ? "rankings_per_s" : "subsets_per_s"] =
      static_cast<double>(state.iterations()) * work / total;
}

void enumeration(benchmark::State& state) {
  run(state, kemeny::Method::enumeration, std::tgamma(static_cast<double>(state.range(0)) + 1));
}

void subset_dp(benchmark::State& state) {
  run(state, kemeny::Method::dp, std::ldexp(1.0, static_cast<int>(state.range(0))));
}

void enumeration_sizes(benchmark::internal::Benchmark* b) {
  if (host) {
    b->Arg(9)->Arg(10)->Arg(11);
  } else {
    b->Arg(12)->Arg(13)->Arg(14);
  }
}

void dp_sizes(benchmark::internal::Benchmark* b) {
  if (host) {
    b->Arg(14)->Arg(18)->Arg(22);
  } else {
    b->Arg(14)->Arg(20)->Arg(24)->Arg(28);
  }
}

/// `auto` on one generated election, timed after the first solve (which also loads the build's
/// kernels): the same benchmark in the OpenMP and CUDA builds compares the builds (issue #17).
/// The mixture at n = 100 takes 15-20 s a solve.
void solve_auto(benchmark::State& state, const prefs::Profile& profile) {
  if (!kemeny::lp_available()) {
    state.SkipWithError("this build has no LP solver (CLP)");
    return;
  }
  const auto o = prefs::pairwise_reference(profile);
  const kemeny::Options options;  // auto, as configs/kemeny_lp.yaml runs it
  Space space;
  if (!kemeny::solve(space, o, options).exact) {  // the search ran out of time: another path
    state.SkipWithError("auto did not prove this election optimal");
    return;
  }
  for (auto _ : state) {
    state.SetIterationTime(
        kollective::time_fenced(space, [&] { benchmark::DoNotOptimize(kemeny::solve(space, o, options)); }));
  }
}

/// A two-Mallows mixture (phi 0.7, 100 voters): one contested component, solved by the LP.
void lp_mixture(benchmark::State& state) {
  solve_auto(state, prefs::mallows_mixture(static_cast<int>(state.range(0)), 100, 0.7, 1));
}

/// Mallows phi 0.95 (100 voters): several Condorcet components, the larger ones (up to 22
/// alternatives at n = 60) solved by the LP.
void mallows_95(benchmark::State& state) {
  solve_auto(state, prefs::mallows(static_cast<int>(state.range(0)), 100, 0.95, 1));
}

}  // namespace

BENCHMARK(lp_mixture)->Arg(30)->Arg(40)->Arg(60)->Arg(100)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(mallows_95)->Arg(60)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(enumeration)->Apply(enumeration_sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(subset_dp)->Apply(dp_sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
