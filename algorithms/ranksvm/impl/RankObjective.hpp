#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_OBJECTIVE_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_OBJECTIVE_HPP

/// \file RankObjective.hpp
/// The L2-loss RankSVM objective on the device, through per-query counts and sums (Lee & Lin):
/// with z = Xw sorted inside each query, two sweeps give for every document i
///   l+_i = #{j: y_j > y_i, z_j < z_i + 1},  l-_i = #{j: y_j < y_i, z_j > z_i - 1}
/// and the sums gamma+-_i of z_j (alpha+-_i of v_j = (Xs)_j for Hessian products) over the same
/// sets; pairs are never formed. One thread per query sorts its documents (heap sort on the
/// permutation) and sweeps them; X.v and X'.u are KokkosBlas gemv calls.
/// Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas2_gemv.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "algorithms/ranksvm/RankData.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"

namespace kollective::ranksvm::Impl {

constexpr int max_levels = 32;

/// Sorts perm[0, n) by increasing key[perm[k]] (heap sort: in place, O(n log n)).
template <class Perm, class Keys>
KOKKOS_INLINE_FUNCTION void sort_by_key(const Perm& perm, std::int64_t begin, std::int64_t n, const Keys& key) {
  auto sift = [&](std::int64_t root, std::int64_t end) {
    while (2 * root + 1 < end) {
      std::int64_t child = 2 * root + 1;
      if (child + 1 < end && key(perm(begin + child)) < key(perm(begin + child + 1))) ++child;
      if (!(key(perm(begin + root)) < key(perm(begin + child)))) return;
      const auto swap = perm(begin + root);
      perm(begin + root) = perm(begin + child);
      perm(begin + child) = swap;
      root = child;
    }
  };
  for (std::int64_t start = n / 2 - 1; start >= 0; --start) sift(start, n);
  for (std::int64_t end = n - 1; end > 0; --end) {
    const auto swap = perm(begin);
    perm(begin) = perm(begin + end);
    perm(begin + end) = swap;
    sift(0, end);
  }
}

/// Per document: count = l+ + l-, balance = l- - l+, and the sums of `values` over the two sets.
struct Sweep {
  double count = 0, balance = 0, sum = 0;
};

/// Both sweeps of one query (perm sorted by z), calling visit(doc, Sweep) for each document.
template <class Perm, class Z, class Levels, class Values, class Visit>
KOKKOS_INLINE_FUNCTION void sweep_query(const Perm& perm, std::int64_t begin, std::int64_t n, const Z& z, const Levels& level,
                                        int levels, const Values& value, Visit visit, double* plus_count, double* plus_sum) {
  // Ascending: j enters once z_j < z_i + 1; l+ sums the levels above y_i.
  double count[max_levels], sum[max_levels];
  for (int k = 0; k < levels; ++k) count[k] = sum[k] = 0;
  for (std::int64_t k = 0, p = 0; k < n; ++k) {
    const std::int64_t i = perm(begin + k);
    for (; p < n && z(perm(begin + p)) < z(i) + 1; ++p) {
      const std::int64_t j = perm(begin + p);
      count[level(j)] += 1;
      sum[level(j)] += value(j);
    }
    double c = 0, s = 0;
    for (int l = level(i) + 1; l < levels; ++l) c += count[l], s += sum[l];
    plus_count[k] = c;
    plus_sum[k] = s;
  }
  // Descending: j enters once z_j > z_i - 1; l- sums the levels below y_i.
  for (int k = 0; k < levels; ++k) count[k] = sum[k] = 0;
  for (std::int64_t k = n - 1, p = n - 1; k >= 0; --k) {
    const std::int64_t i = perm(begin + k);
    for (; p >= 0 && z(perm(begin + p)) > z(i) - 1; --p) {
      const std::int64_t j = perm(begin + p);
      count[level(j)] += 1;
      sum[level(j)] += value(j);
    }
    double c = 0, s = 0;
    for (int l = 0; l < level(i); ++l) c += count[l], s += sum[l];
    visit(i, Sweep{c + plus_count[k], c - plus_count[k], s + plus_sum[k]});
  }
}

template <class ExecSpace>
class RankObjective {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Vector = Kokkos::View<double*, Memory>;

  RankObjective(const ExecSpace& space, const RankData& data, double C) : space_(space), C_(C) {
    if (!(C > 0) || !std::isfinite(C)) fail("RankSVM: C must be a positive number (got ", C, ")");
    docs_ = data.docs;
    features_ = data.features;
    queries_ = data.queries();
    const std::int64_t bytes = checked_mul(docs_, features_, "documents x features") * 8 + docs_ * 8 * 8;
    require_device_memory(bytes, "RankSVM data (" + std::to_string(docs_) + " documents x " + std::to_string(features_) + " features)");
    x_ = Kokkos::View<double**, Kokkos::LayoutRight, Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Kollective::RankSvm::X"),
                                                             docs_, features_);
    auto x_host = Kokkos::create_mirror_view(x_);
    std::copy(data.x.begin(), data.x.end(), x_host.data());
    Kokkos::deep_copy(space, x_, x_host);
    // Labels become levels 0..L-1 (the sweeps accumulate per level).
    std::map<double, int> levels;
    for (double label : data.labels) levels.emplace(label, 0);
    if (levels.size() > static_cast<std::size_t>(max_levels)) {
      fail("RankSVM supports up to ", max_levels, " distinct labels (the data has ", levels.size(), ")");
    }
    for (auto& entry : levels) entry.second = levels_++;
    level_ = Kokkos::View<int*, Memory>("Kollective::RankSvm::level", docs_);
    auto level_host = Kokkos::create_mirror_view(level_);
    for (std::int64_t d = 0; d < docs_; ++d) level_host(d) = levels[data.labels[d]];
    Kokkos::deep_copy(space, level_, level_host);
    begin_ = Kokkos::View<std::int64_t*, Memory>("Kollective::RankSvm::query_begin", queries_ + 1);
    auto begin_host = Kokkos::create_mirror_view(begin_);
    std::copy(data.query_begin.begin(), data.query_begin.end(), begin_host.data());
    Kokkos::deep_copy(space, begin_, begin_host);
    for (std::int64_t q = 0; q < queries_; ++q) largest_query_ = std::max(largest_query_, data.query_begin[q + 1] - data.query_begin[q]);
    z_ = Vector("Kollective::RankSvm::z", docs_);
    v_ = Vector("Kollective::RankSvm::Xs", docs_);
    r_ = Vector("Kollective::RankSvm::r", docs_);
    scratch_ = Vector("Kollective::RankSvm::scratch", 2 * docs_);
    perm_ = Kokkos::View<std::int64_t*, Memory>("Kollective::RankSvm::perm", docs_);
  }

  int features() const { return features_; }
  std::int64_t docs() const { return docs_; }
  const ExecSpace& space() const { return space_; }

  /// f(w); sorts z = Xw per query and keeps r (the gradient's per-document factor) and the order
  /// for grad() and hv() at this w.
  double fun(const Vector& w) {
    KokkosBlas::gemv("N", 1.0, x_, w, 0.0, z_);
    auto z = z_;
    auto level = level_;
    auto begin = begin_;
    auto perm = perm_;
    auto r = r_;
    auto scratch = scratch_;
    const int levels = levels_;
    double loss = 0;
    Kokkos::parallel_reduce(
        "Kollective::RankSvm::fun", Kokkos::RangePolicy<ExecSpace>(space_, 0, queries_),
        KOKKOS_LAMBDA(const std::int64_t q, double& total) {
          const std::int64_t first = begin(q), n = begin(q + 1) - first;
          for (std::int64_t k = 0; k < n; ++k) perm(first + k) = first + k;
          sort_by_key(perm, first, n, z);
          sweep_query(
              perm, first, n, z, level, levels, z,
              [&](std::int64_t i, const Sweep& s) {
                // z_i((l+ + l-) z_i - gamma - 2(l- - l+)) + l-, with l- = (count + balance) / 2
                total += z(i) * (s.count * z(i) - s.sum - 2 * s.balance) + (s.count + s.balance) / 2;
                r(i) = s.count * z(i) - s.sum - s.balance;
              },
              &scratch(2 * first), &scratch(2 * first + n));
        },
        loss);
    return 0.5 * KokkosBlas::dot(w, w) + C_ * loss;
  }

  /// g = w + 2C X'r at the w of the last fun().
  void grad(const Vector& w, const Vector& g) {
    KokkosBlas::gemv("T", 2 * C_, x_, r_, 0.0, g);
    KokkosBlas::axpby(1.0, w, 1.0, g);
  }

  /// Hs = s + 2C X'u, u_i = (l+ + l-) v_i - alpha+ - alpha-, v = Xs, sets from the last fun().
  void hv(const Vector& s, const Vector& hs) {
    KokkosBlas::gemv("N", 1.0, x_, s, 0.0, v_);
    auto z = z_;
    auto v = v_;
    auto level = level_;
    auto begin = begin_;
    auto perm = perm_;
    auto u = r_hv();
    auto scratch = scratch_;
    const int levels = levels_;
    Kokkos::parallel_for(
        "Kollective::RankSvm::hv", Kokkos::RangePolicy<ExecSpace>(space_, 0, queries_), KOKKOS_LAMBDA(const std::int64_t q) {
          const std::int64_t first = begin(q), n = begin(q + 1) - first;
          sweep_query(
              perm, first, n, z, level, levels, v, [&](std::int64_t i, const Sweep& t) { u(i) = t.count * v(i) - t.sum; },
              &scratch(2 * first), &scratch(2 * first + n));
        });
    KokkosBlas::gemv("T", 2 * C_, x_, u, 0.0, hs);
    KokkosBlas::axpby(1.0, s, 1.0, hs);
  }

  /// The scores z = Xw of the last fun().
  Vector scores() const { return z_; }

 private:
  Vector r_hv() {
    if (u_.extent(0) != static_cast<std::size_t>(docs_)) u_ = Vector("Kollective::RankSvm::u", docs_);
    return u_;
  }

  ExecSpace space_;
  double C_;
  std::int64_t docs_ = 0, queries_ = 0, largest_query_ = 0;
  int features_ = 0, levels_ = 0;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> x_;
  Kokkos::View<int*, Memory> level_;
  Kokkos::View<std::int64_t*, Memory> begin_, perm_;
  Vector z_, v_, r_, u_, scratch_;
};

}  // namespace kollective::ranksvm::Impl

#endif
