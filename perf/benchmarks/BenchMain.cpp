// Google Benchmark main: Kokkos initialised once, configuration and revision in the context.
#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include "kollective/core/RuntimeInfo.hpp"

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  benchmark::Initialize(&argc, argv);
  const auto& info = kollective::runtime_info();
  benchmark::AddCustomContext("kollective_revision", info.revision);
  benchmark::AddCustomContext("kokkos_version", info.kokkos_version);
  benchmark::AddCustomContext("kokkos_backend", info.backend);
  benchmark::AddCustomContext("device", info.device);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
