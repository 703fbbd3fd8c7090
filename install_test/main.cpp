// Solves the four problems on this program's own Views, in the default execution space's memory,
// and checks each answer independently.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include "kollective/Kollective.hpp"

namespace {

int failures = 0;
void expect(bool holds, const char* what) {
  std::printf("%s: %s\n", holds ? "ok" : "FAILED", what);
  failures += holds ? 0 : 1;
}

using Space = Kokkos::DefaultExecutionSpace;

// The 45 voters of the Schulze method's classic example (alternatives A..E): d[i][j] voters prefer
// i to j. Kollective takes 2 d[i][j], so that the half votes of tied ballots stay integers.
constexpr int n = 5;
constexpr int d[n][n] = {
    {0, 20, 26, 30, 22}, {25, 0, 16, 33, 18}, {19, 29, 0, 17, 24}, {15, 12, 28, 0, 14}, {23, 27, 21, 31, 0}};

// A column-major matrix, passed as a const View: any layout and constness are accepted.
Kokkos::View<const std::uint32_t**, Kokkos::LayoutLeft, Space::memory_space> doubled_counts() {
  Kokkos::View<std::uint32_t**, Kokkos::LayoutLeft, Space::memory_space> doubled("doubled", n, n);
  auto host = Kokkos::create_mirror_view(doubled);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) host(i, j) = 2 * d[i][j];
  }
  Kokkos::deep_copy(doubled, host);
  return doubled;
}

void schulze() {
  const auto result = kollective::schulze::solve(Space(), doubled_counts());
  expect(result.winners == std::vector<int>{4}, "Schulze: E wins the classic example");
}

void kemeny() {
  const auto result = kollective::kemeny::solve(Space(), doubled_counts());
  // Brute force: the disagreements of every order of the 5 alternatives.
  std::array<int, n> order;
  std::iota(order.begin(), order.end(), 0);
  long best = -1;
  do {
    long disagreements = 0;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) disagreements += d[order[b]][order[a]];
    }
    if (best < 0 || disagreements < best) best = disagreements;
  } while (std::next_permutation(order.begin(), order.end()));
  expect(result.exact && result.distance == static_cast<std::uint64_t>(2 * best), "Kemeny: the optimum of brute force");
}

void coalition() {
  // Four agents, each worth 1 alone and additive, except the pairs {0, 1} and {2, 3}: 3 each.
  Kokkos::View<double*, Space::memory_space> values("values", 16);
  auto host = Kokkos::create_mirror_view(values);
  for (int mask = 0; mask < 16; ++mask) host(mask) = __builtin_popcount(mask);
  host(0b0011) = 3;
  host(0b1100) = 3;
  Kokkos::deep_copy(values, host);
  const auto result = kollective::coalition::solve(Space(), values);
  expect(result.value == 6 && result.structure == std::vector<std::uint64_t>{0b0011, 0b1100},
         "coalition structure: {0, 1} and {2, 3}, worth 6");
}

void ranksvm() {
  // Two queries of three documents; the label follows the first feature, not the second.
  constexpr int docs = 6;
  const double features[docs][2] = {{0.1, 0.9}, {0.5, 0.2}, {0.9, 0.5}, {0.2, 0.1}, {0.6, 0.8}, {0.8, 0.3}};
  const int labels[docs] = {0, 1, 2, 0, 1, 2}, queries[docs] = {1, 1, 1, 2, 2, 2};
  Kokkos::View<double**, Space::memory_space> x("x", docs, 2);
  Kokkos::View<int*, Space::memory_space> y("y", docs), qid("qid", docs);
  auto x_host = Kokkos::create_mirror_view(x);
  auto y_host = Kokkos::create_mirror_view(y);
  auto qid_host = Kokkos::create_mirror_view(qid);
  for (int k = 0; k < docs; ++k) {
    x_host(k, 0) = features[k][0];
    x_host(k, 1) = features[k][1];
    y_host(k) = labels[k];
    qid_host(k) = queries[k];
  }
  Kokkos::deep_copy(x, x_host);
  Kokkos::deep_copy(y, y_host);
  Kokkos::deep_copy(qid, qid_host);
  kollective::ranksvm::Options options;
  options.C = 10;
  const auto model = kollective::ranksvm::train(Space(), x, y, qid, options);
  bool ordered = true;  // within each query, a higher label scores higher
  for (int a = 0; a < docs; ++a) {
    for (int b = 0; b < docs; ++b) {
      const double score_a = model.w[0] * features[a][0] + model.w[1] * features[a][1];
      const double score_b = model.w[0] * features[b][0] + model.w[1] * features[b][1];
      if (queries[a] == queries[b] && labels[a] > labels[b]) ordered &= score_a > score_b;
    }
  }
  expect(model.converged && ordered, "RankSVM: every preference pair ordered");
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  schulze();
  kemeny();
  coalition();
  ranksvm();
  return failures == 0 ? 0 : 1;
}
