// Coalition structure generation: the blocked DP and IDP on IDP^G's benchmark values (seed
// 1234) in float and double. splits_per_s counts the splits each method evaluates;
// bytes_per_s the block reads of the high splits (two blocks of 32 values per high split),
// the traffic that the L1/L2 caches serve. Manual, fenced time of the whole solve.
#include <benchmark/benchmark.h>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Timer.hpp"

namespace {

namespace coalition = kollective::coalition;
using Space = Kokkos::DefaultExecutionSpace;
constexpr bool host = kollective::runs_on_host<Space>;

template <class Value>
void solve(benchmark::State& state, coalition::Method method) {
  const int n = static_cast<int>(state.range(0));
  const auto game = coalition::idpg_benchmark(n, 1234);
  Space space;
  double total = 0, splits = 0;
  for (auto _ : state) {
    coalition::Result result;
    const double seconds =
        kollective::time_fenced(space, [&] { result = coalition::solve<Value>(space, game, {method}); });
    state.SetIterationTime(seconds);
    total += seconds;
    splits = result.splits;
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["splits_per_s"] = iterations * splits / total;
  state.counters["bytes_per_s"] = iterations * coalition::block_read_bytes(n, method, sizeof(Value)) / total;
}

void sizes(benchmark::internal::Benchmark* b) {
  if (host) {
    b->Arg(16)->Arg(20);
  } else {
    b->Arg(22)->Arg(24)->Arg(26);
  }
}

void idp_float(benchmark::State& state) { solve<float>(state, coalition::Method::idp); }
void idp_double(benchmark::State& state) { solve<double>(state, coalition::Method::idp); }
void dp_float(benchmark::State& state) { solve<float>(state, coalition::Method::dp); }

}  // namespace

BENCHMARK(idp_float)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(idp_double)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(dp_float)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
