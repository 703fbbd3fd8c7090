// Diagnostic (built by hand, see ../../2026-11-24_h200x2_scale_out.md): times each IDP layer's high splits over the
// lower and the upper half of its blocks (colex order), as two ranks would split them, on one GPU.
// It builds against Coalition_Impl.hpp as of 7d6a278 (later, run_high_splits takes a LayerShare).
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <random>
#include "kollective/algorithms/coalition/impl/Coalition_Impl.hpp"
namespace I = kollective::coalition::Impl;
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 28;
  using Space = Kokkos::DefaultExecutionSpace;
  using Memory = Space::memory_space;
  Space space;
  const int H = n - I::low_agents;
  std::vector<double> values(std::size_t{1} << n);
  std::mt19937_64 rng(1);
  for (auto& v : values) v = std::uniform_real_distribution<double>(0, 1)(rng);
  Kokkos::View<float*, Memory> f("f", values.size());
  I::upload_values(space, values, f);
  float* table = f.data();
  const auto binomial = kollective::subsets::binomial_table<Memory>(space, H);
  I::run_block_zero(space, table);
  double low_sum = 0, high_sum = 0;
  for (int h = 1; h <= H; ++h) {
    const I::Layer layer = I::plan_layer(n, H, h, true);
    const std::uint64_t half = (layer.blocks + 1) / 2;
    double t[2] = {0, 0};
    for (int side = 0; side < 2 && layer.chunks != 0; ++side) {
      space.fence();
      Kokkos::Timer timer;
      I::run_high_splits(space, table, layer, side ? half : 0, side ? layer.blocks : half, H, binomial);
      space.fence();
      t[side] = timer.seconds();
    }
    I::run_local_splits(space, table, h, 0, layer.blocks, H, binomial);
    space.fence();
    low_sum += t[0];
    high_sum += t[1];
    std::printf("h=%2d blocks=%10llu lower=%9.4f s upper=%9.4f s\n", h, (unsigned long long)layer.blocks, t[0], t[1]);
  }
  std::printf("n=%d total lower half %.3f s, upper half %.3f s, max-sum %.3f s\n", n, low_sum, high_sum,
              low_sum > high_sum ? low_sum : high_sum);
}
