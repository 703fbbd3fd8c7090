// RankSVM objective kernels on the MSLR-WEB30K fold's size (on a host backend, MQ2007's):
// X'u for each number of feature columns per team, the per-query sums, and whole Hessian
// products, with X stored in double and in float. Counters: bytes of X read per second (one pass for X'u, two for Hv).
// Manual, fenced time; the data is generated once per storage type.
#include <benchmark/benchmark.h>

#include <memory>

#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Timer.hpp"

namespace {

namespace ranksvm = kollective::ranksvm;
using Space = Kokkos::DefaultExecutionSpace;
constexpr bool host = kollective::runs_on_host<Space>;

const ranksvm::RankData& data() {
  static const ranksvm::RankData set = host ? ranksvm::synthetic_letor("mq2007", 1692, 69623, 46, 1)
                                            : ranksvm::synthetic_letor("mslr", 18919, 2270296, 136, 1);
  return set;
}

/// The objective at a fixed nonzero w (fun() done, so Hessian products can run).
template <class Feature>
ranksvm::Impl::RankObjective<Space, Feature>& objective() {
  using Objective = ranksvm::Impl::RankObjective<Space, Feature>;
  static std::unique_ptr<Objective> made;
  if (!made) {
    made = std::make_unique<Objective>(Space(), data(), 1.0);
    typename Objective::Vector w("w", made->features());
    Kokkos::deep_copy(w, 1e-3);
    made->fun(w);
    Kokkos::push_finalize_hook([] { made.reset(); });  // its Views must go before Kokkos does
  }
  return *made;
}

template <class Operation>
void time_operation(benchmark::State& state, double bytes_per_call, Operation operation) {
  Space space;
  double total = 0;
  for (auto _ : state) {
    const double seconds = kollective::time_fenced(space, operation);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["x_bytes_per_s"] = static_cast<double>(state.iterations()) * bytes_per_call / total;
}

template <class Feature, int Columns>
void transpose_times(benchmark::State& state) {
  auto& f = objective<Feature>();
  typename ranksvm::Impl::RankObjective<Space, Feature>::Vector u("u", f.docs()), out("out", f.features());
  Kokkos::deep_copy(u, 1.0);
  time_operation(state, static_cast<double>(f.x_bytes()),
                 [&] { f.matrix().template transpose_times_by<Columns>(u, out); });
}

/// The per-query sums of a Hessian product (they do not read X: no bytes counter).
template <class Feature>
void hessian_sums(benchmark::State& state) {
  auto& f = objective<Feature>();
  typename ranksvm::Impl::RankObjective<Space, Feature>::Vector v("v", f.docs()), u("u", f.docs());
  Kokkos::deep_copy(v, 1e-3);
  Space space;
  for (auto _ : state) state.SetIterationTime(kollective::time_fenced(space, [&] { f.set_sums(v, u, true); }));
}

template <class Feature>
void hessian_product(benchmark::State& state) {
  auto& f = objective<Feature>();
  typename ranksvm::Impl::RankObjective<Space, Feature>::Vector s("s", f.features()), hs("hs", f.features());
  Kokkos::deep_copy(s, 1e-3);
  time_operation(state, 2.0 * static_cast<double>(f.x_bytes()), [&] { f.hv(s, hs); });
}

}  // namespace

BENCHMARK_TEMPLATE(transpose_times, double, 2)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(transpose_times, double, 4)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(transpose_times, double, 8)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(transpose_times, float, 2)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(transpose_times, float, 4)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(transpose_times, float, 8)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(hessian_sums, float)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(hessian_product, double)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(hessian_product, float)->UseManualTime()->Unit(benchmark::kMicrosecond);
