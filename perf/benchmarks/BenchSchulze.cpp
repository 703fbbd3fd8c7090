// Schulze kernels: the device pairwise build (ballot-cells/s) and the strongest paths
// (cells/s = n^3 / t, the anchor's convention), 32- and 16-bit. Manual time: fence, time, fence.
#include <benchmark/benchmark.h>

#include <cmath>

#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/preferences/Generators.hpp"

namespace {

namespace prefs = kollective::preferences;
namespace schulze = kollective::schulze;
using Space = Kokkos::DefaultExecutionSpace;
constexpr bool host = kollective::runs_on_host<Space>;

void pairwise_build(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto profile = prefs::impartial_culture(n, 1000, 1);
  Space space;
  double total = 0;
  for (auto _ : state) {
    const double seconds = kollective::time_fenced(space, [&] { prefs::build_pairwise(space, profile); });
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["ballot_cells_per_s"] =
      static_cast<double>(state.iterations()) * n * n * static_cast<double>(profile.ballots.size()) / total;
}

template <class Strength>
void strongest_paths(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Space space;
  // Voters chosen so the strengths need the benchmarked width (16-bit: below 32768 voters).
  const std::uint32_t voters = sizeof(Strength) == 2 ? 30000 : 1000000;
  const auto doubled = prefs::random_pairwise(space, n, voters, 1);
  const auto original = schulze::link_strengths<Strength>(space, doubled, schulze::LinkRule::winning_votes);
  auto paths = Kokkos::create_mirror(Space::memory_space(), original);
  double total = 0;
  for (auto _ : state) {
    Kokkos::deep_copy(space, paths, original);  // every repetition solves the same fresh input
    const double seconds = kollective::time_fenced(space, [&] { schulze::strongest_paths(space, paths); });
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["cells_per_s"] = static_cast<double>(state.iterations()) * std::pow(static_cast<double>(n), 3) / total;
  state.counters["n"] = n;
}

void sizes(benchmark::internal::Benchmark* b) {
  if (host) {
    b->Arg(256)->Arg(512)->Arg(1024);
  } else {
    b->Arg(1024)->Arg(4096)->Arg(8192)->Arg(16384);
  }
}

}  // namespace

BENCHMARK(pairwise_build)->Arg(128)->Arg(512)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(strongest_paths, std::uint32_t)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(strongest_paths, std::uint16_t)->Apply(sizes)->UseManualTime()->Unit(benchmark::kMillisecond);
