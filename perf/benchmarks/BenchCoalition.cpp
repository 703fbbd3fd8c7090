// Coalition structure generation: the blocked DP and IDP on IDP^G's benchmark values (seed
// 1234) in float and double. splits_per_s counts the splits each method evaluates;
// bytes_per_s the block reads of the high splits (two blocks of 32 values per high split),
// the traffic that the L1/L2 caches serve. And IP alone on modified normal (seed 7) with its DP
// start's largest size swept around ip_dp_size (the second argument: the offset): ip_start_s is
// the part before the search, nodes the coalitions tried. Manual, fenced time of the whole solve.
// ip_start_parts times each part of IP's start (the time: their sum).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

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
  coalition::Options options{method};
  options.precision = std::is_same_v<Value, float> ? kollective::Precision::float32 : kollective::Precision::float64;
  double total = 0, splits = 0;
  for (auto _ : state) {
    coalition::Result result;
    const double seconds = kollective::time_fenced(space, [&] {  // the generator's values, valid
      result = coalition::Impl::solve_checked(space, game, options, nullptr);
    });
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

void ip_modified_normal(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int dp_size = coalition::Impl::ip_dp_size(n) + static_cast<int>(state.range(1));
  static std::map<int, coalition::Game> games;  // generated once per n (serial on the host)
  coalition::Game& game = games[n];
  if (game.values.empty()) game = coalition::generate_game("modified_normal", n, 7);
  Space space;
  double total = 0, start = 0;
  std::int64_t nodes = 0;
  for (auto _ : state) {
    coalition::Result result;
    const double seconds = kollective::time_fenced(space, [&] {
      result = coalition::Impl::solve_ip(space, coalition::Values(game), {coalition::Method::ip}, {0, 0, dp_size});
    });
    state.SetIterationTime(seconds);
    total += seconds;
    start += result.ip_start_s;
    nodes = result.nodes;
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["ip_start_s"] = start / iterations;
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["dp_size"] = dp_size;
}

void ip_sizes(benchmark::internal::Benchmark* b) {
  for (const int n : host ? std::vector<int>{18, 20} : std::vector<int>{25, 26, 27, 28}) {
    for (const int offset : {-2, -1, 0, 1}) b->Args({n, offset});
  }
}

/// IP's start on modified normal, part by part (seconds, fenced): the values' upload, the size
/// statistics, the plan (host), the copy of the values into `known`, the DP start at ip_dp_size
/// and the largest best partition per size (the closed agents' bound).
void ip_start_parts(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const coalition::Game game = coalition::generate_game("modified_normal", n, 7);
  const coalition::Values values(game);
  Space space;
  using Memory = Space::memory_space;
  std::map<std::string, double> parts;
  for (auto _ : state) {
    double iteration = 0;
    const auto timed = [&](const char* part, auto&& work) {
      const double seconds = kollective::time_fenced(space, work);
      parts[part] += seconds;
      iteration += seconds;
    };
    Kokkos::View<const double*, Memory> v;
    timed("upload_s", [&] { v = coalition::Impl::values_on(space, values); });
    const auto binomial = kollective::subsets::binomial_table<Memory>(space, n);
    coalition::SizeStatistics stats(n);
    timed("statistics_s", [&] {
      if constexpr (host) {
        stats = coalition::Impl::scan_in_parallel(space, values);
      } else {
        stats = coalition::Impl::statistics_on(space, v, n, binomial);
      }
    });
    timed("plan_s", [&] { coalition::plan_subspaces(values, stats); });
    Kokkos::View<double*, Memory> known(Kokkos::view_alloc(Kokkos::WithoutInitializing, "known"), v.extent(0));
    timed("copy_s", [&] { Kokkos::deep_copy(space, known, v); });
    const int dp_size = coalition::Impl::ip_dp_size(n);
    timed("dp_s", [&] { coalition::Impl::best_partitions_up_to(space, known, n, dp_size, binomial); });
    timed("maxima_s", [&] {
      coalition::Impl::best_partition_maxima(space, Kokkos::View<const double*, Memory>(known), n, dp_size, binomial);
    });
    state.SetIterationTime(iteration);
  }
  for (const auto& [name, seconds] : parts) state.counters[name] = seconds / static_cast<double>(state.iterations());
}

void idp_float(benchmark::State& state) { solve<float>(state, coalition::Method::idp); }
void idp_double(benchmark::State& state) { solve<double>(state, coalition::Method::idp); }
void dp_float(benchmark::State& state) { solve<float>(state, coalition::Method::dp); }

}  // namespace

BENCHMARK(idp_float)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(idp_double)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(dp_float)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ip_modified_normal)->Apply(ip_sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ip_start_parts)->DenseRange(host ? 18 : 25, host ? 20 : 28)->Iterations(3)->UseManualTime();

/// auto with its shares swept (arguments: n, the model's index in value_models(), the first
/// share and the rounds' share in thousandths of IDP's time): how much of IDP's time the rounds
/// save where a small first share leaves the ending to them (n = 24 on the host: IDP about 30 s on
/// the 2-core CPU; 27 on a GPU).
void auto_shares(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string model = coalition::value_models().at(static_cast<std::size_t>(state.range(1)));
  static std::map<std::pair<std::string, int>, coalition::Game> games;  // generated once
  coalition::Game& game = games[{model, n}];
  if (game.values.empty()) game = coalition::generate_game(model, n, 7);
  Space space;
  const coalition::Values values(game);
  coalition::Options options;
  options.method = coalition::Method::automatic;
  options.ip_share = state.range(2) / 1000.0;
  options.ip_round_share = state.range(3) / 1000.0;
  coalition::Result result;
  for (auto _ : state) {
    state.SetIterationTime(kollective::time_fenced(space, [&] {
      result = coalition::Impl::solve_automatic<double>(
          space, values, options,
          [&](const coalition::Options& idp, const auto& shared,
              const coalition::Impl::LayerHook<Space::memory_space>& hook) {
            return coalition::Impl::solve<double>(space, values, idp, nullptr, shared, hook);
          },
          {});
    }));
  }
  state.SetLabel(model);
  state.counters["ip_s"] = result.ip_s;
  state.counters["ended_by_ip"] = result.method == "ip";
  state.counters["nodes"] = static_cast<double>(result.nodes);
}

void auto_share_points(benchmark::internal::Benchmark* b) {
  for (const int model : {3, 5, 7, 8}) {  // modified uniform, exponential, gamma, NDCS
    for (const int rounds : {0, 30, 100}) b->Args({host ? 24 : 27, model, 10, rounds});
  }
}
BENCHMARK(auto_shares)->Apply(auto_share_points)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
