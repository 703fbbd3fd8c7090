#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_OBJECTIVE_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_OBJECTIVE_HPP

/// \file RankObjective.hpp
/// The L2-loss RankSVM objective on the device, through per-query counts and sums (Lee & Lin):
/// with z = Xw sorted inside each query, two sweeps give for every document i
///   l+_i = #{j: y_j > y_i, z_j < z_i + 1},  l-_i = #{j: y_j < y_i, z_j > z_i - 1}
/// and the sums gamma+-_i of z_j (alpha+-_i of v_j = (Xs)_j for Hessian products) over the same
/// sets; pairs are never formed. One team per query sorts its documents by z (a bitonic network
/// over the query's slice of a workspace, padded to a power of two), finds for every document
/// the sorted positions of z_i + 1 and z_i - 1 by binary search, and then, label level by level,
/// scans counts and sums in sorted order so that each document reads its l, gamma (alpha) terms
/// at those positions. Every step is parallel inside the team, so a large query is spread over
/// the team's threads. X.v is a KokkosBlas gemv call; X'.u is our own kernel (see transpose_times).
/// Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas2_gemv.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>

#include "algorithms/ranksvm/RankData.hpp"
#include "core/Compat.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Timer.hpp"

namespace kollective::ranksvm::Impl {

constexpr int max_levels = 32;

/// Smallest power of two >= n (n >= 1).
KOKKOS_INLINE_FUNCTION std::int64_t padded(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

/// Number of keys[first, first + n) below `bound` (lower bound) or, with or_equal, at most `bound`.
template <class Keys>
KOKKOS_INLINE_FUNCTION std::int64_t count_below(const Keys& keys, std::int64_t first, std::int64_t n, double bound, bool or_equal) {
  std::int64_t low = 0, high = n;
  while (low < high) {
    const std::int64_t mid = (low + high) / 2;
    const double key = keys(first + mid);
    if (key < bound || (or_equal && key == bound)) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
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
    const std::int64_t bytes = checked_mul(docs_, features_, "documents x features") * 8 + docs_ * 8 * 20;
    require_device_memory(bytes, "RankSVM data (" + std::to_string(docs_) + " documents x " + std::to_string(features_) + " features)");
    // Column-major X: gemv "N" (a thread per document) and "T" (a team per feature column) then
    // both read X in contiguous runs (row-major made KokkosBlas' X'u 4x slower than a pass over X).
    x_ = Kokkos::View<double**, Kokkos::LayoutLeft, Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Kollective::RankSvm::X"),
                                                            docs_, features_);
    auto x_host = Kokkos::create_mirror_view(x_);
    for (std::int64_t d = 0; d < docs_; ++d) {
      for (int f = 0; f < features_; ++f) x_host(d, f) = data.x[d * features_ + f];
    }
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
    z_ = Vector("Kollective::RankSvm::z", docs_);
    v_ = Vector("Kollective::RankSvm::Xs", docs_);
    r_ = Vector("Kollective::RankSvm::r", docs_);
    u_ = Vector("Kollective::RankSvm::u", docs_);
    // Query q's slice [2 begin_q, 2 begin_q + 2 n_q) holds its padded sort and its prefixes.
    key_ = Vector("Kollective::RankSvm::sorted_z", 2 * docs_);
    prefix_count_ = Vector("Kollective::RankSvm::prefix_count", 2 * docs_);
    prefix_sum_ = Vector("Kollective::RankSvm::prefix_sum", 2 * docs_);
    perm_ = Kokkos::View<std::int64_t*, Memory>("Kollective::RankSvm::perm", 2 * docs_);
    plus_ = Kokkos::View<std::int64_t*, Memory>("Kollective::RankSvm::plus", docs_);
    minus_ = Kokkos::View<std::int64_t*, Memory>("Kollective::RankSvm::minus", docs_);
    count_ = Vector("Kollective::RankSvm::count", docs_);
    balance_ = Vector("Kollective::RankSvm::balance", docs_);
    sum_ = Vector("Kollective::RankSvm::sum", docs_);
  }

  int features() const { return features_; }
  std::int64_t docs() const { return docs_; }
  const ExecSpace& space() const { return space_; }

  /// f(w); sorts z = Xw per query and keeps, for grad() and hv() at this w, the sorted order,
  /// the threshold positions and r (the gradient's per-document factor).
  double fun(const Vector& w) {
    KokkosBlas::gemv("N", 1.0, x_, w, 0.0, z_);
    auto z = z_, key = key_, r = r_, count = count_;
    auto perm = perm_, plus = plus_, minus = minus_;
    auto begin = begin_;
    const double infinity = std::numeric_limits<double>::infinity();
    Kokkos::parallel_for(
        "Kollective::RankSvm::sort", Policy(space_, queries_, Kokkos::AUTO), KOKKOS_LAMBDA(const Member& team) {
          const std::int64_t first = begin(team.league_rank()), n = begin(team.league_rank() + 1) - first;
          const std::int64_t size = padded(n), base = 2 * first;  // the query's workspace slice
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](const std::int64_t k) {
            key(base + k) = k < n ? z(first + k) : infinity;
            perm(base + k) = first + k;
          });
          team.team_barrier();
          for (std::int64_t block = 2; block <= size; block <<= 1) {
            for (std::int64_t stride = block / 2; stride > 0; stride >>= 1) {
              Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size / 2), [&](const std::int64_t t) {
                const std::int64_t i = base + 2 * stride * (t / stride) + t % stride, j = i + stride;
                const bool ascending = ((i - base) & block) == 0;
                if (ascending ? key(i) > key(j) : key(i) < key(j)) {
                  const double k = key(i);
                  key(i) = key(j);
                  key(j) = k;
                  const std::int64_t p = perm(i);
                  perm(i) = perm(j);
                  perm(j) = p;
                }
              });
              team.team_barrier();
            }
          }
          // Document i pairs with the j of higher label and z_j < z_i + 1 (sorted positions
          // [0, plus)) and with the j of lower label and z_j > z_i - 1 (positions [minus, n)).
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const std::int64_t k) {
            const std::int64_t i = perm(base + k);
            plus(i) = count_below(key, base, n, z(i) + 1, false);
            minus(i) = count_below(key, base, n, z(i) - 1, true);
          });
        });
    accumulate(z_);
    auto balance = balance_, sum = sum_;
    double loss = 0;
    Kokkos::parallel_reduce(
        "Kollective::RankSvm::fun", Kokkos::RangePolicy<ExecSpace>(space_, 0, docs_),
        KOKKOS_LAMBDA(const std::int64_t i, double& total) {
          // z_i((l+ + l-) z_i - gamma - 2(l- - l+)) + l-, with l- = (count + balance) / 2
          total += z(i) * (count(i) * z(i) - sum(i) - 2 * balance(i)) + (count(i) + balance(i)) / 2;
          r(i) = count(i) * z(i) - sum(i) - balance(i);
        },
        loss);
    return 0.5 * KokkosBlas::dot(w, w) + C_ * loss;
  }

  /// g = w + 2C X'r at the w of the last fun().
  void grad(const Vector& w, const Vector& g) {
    transpose_times(r_, g);
    KokkosBlas::axpby(1.0, w, 2 * C_, g);
  }

  /// out = X'u. KokkosBlas::gemv("T") of Kokkos Kernels 3.4 streamed X at 0.17 TB/s on an H200
  /// (a team per column). Here a team takes a block of documents, each of its threads (a warp of
  /// vector lanes on the GPU) one feature column of the block: coalesced reads, a warp-level
  /// reduction, one atomic add per column and block.
  void transpose_times(const Vector& u, const Vector& out) {
    Kokkos::deep_copy(space_, out, 0.0);
    auto x = x_;
    const std::int64_t docs = docs_;
    const int features = features_;
    constexpr std::int64_t rows_per_team = 2048;
    const std::int64_t teams = (docs + rows_per_team - 1) / rows_per_team;
    const int lanes = runs_on_host<ExecSpace> ? 1 : 32;
    Kokkos::parallel_for(
        "Kollective::RankSvm::transpose_times", Policy(space_, teams, Kokkos::AUTO, lanes), KOKKOS_LAMBDA(const Member& team) {
          const std::int64_t first = team.league_rank() * rows_per_team;
          const std::int64_t last = first + rows_per_team < docs ? first + rows_per_team : docs;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, features), [&](const int f) {
            double column = 0;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(team, first, last), [&](const std::int64_t d, double& partial) { partial += x(d, f) * u(d); },
                column);
            Kokkos::single(Kokkos::PerThread(team), [&]() { Kokkos::atomic_add(&out(f), column); });
          });
        });
  }

  /// Hs = s + 2C X'u, u_i = (l+ + l-) v_i - alpha+ - alpha-, v = Xs, sets from the last fun().
  /// Fenced seconds of the three parts of all hv() calls so far.
  struct HvParts {
    double x_times_s = 0, sweeps = 0, x_transpose_times_u = 0;
  };
  const HvParts& hv_parts() const { return hv_parts_; }

  void hv(const Vector& s, const Vector& hs) {
    hv_parts_.x_times_s += time_fenced(space_, [&] { KokkosBlas::gemv("N", 1.0, x_, s, 0.0, v_); });
    auto v = v_, u = u_, count = count_, sum = sum_;
    hv_parts_.sweeps += time_fenced(space_, [&] {
      accumulate(v_);
      Kokkos::parallel_for(
          "Kollective::RankSvm::hv", Kokkos::RangePolicy<ExecSpace>(space_, 0, docs_),
          KOKKOS_LAMBDA(const std::int64_t i) { u(i) = count(i) * v(i) - sum(i); });
    });
    hv_parts_.x_transpose_times_u += time_fenced(space_, [&] { transpose_times(u, hs); });
    KokkosBlas::axpby(1.0, s, 2 * C_, hs);
  }

  /// Seconds to read X once (a fenced sum over all entries): the memory floor of X.v and X'.u.
  double time_read_x() {
    auto x = x_;
    const int features = features_;
    double total = 0;
    return time_fenced(space_, [&] {
      Kokkos::parallel_reduce(
          "Kollective::RankSvm::read_x", Kokkos::RangePolicy<ExecSpace>(space_, 0, docs_),
          KOKKOS_LAMBDA(const std::int64_t d, double& partial) {
            for (int f = 0; f < features; ++f) partial += x(d, f);
          },
          total);
    });
  }

  /// The scores z = Xw of the last fun().
  Vector scores() const { return z_; }

  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;

  // Public only because CUDA's extended lambdas cannot live in private member functions.

  /// For every document i: count = l+ + l-, balance = l- - l+ and sum = the sum of `value` over
  /// both sets, from the sorted order and positions of the last fun(). Level by level, the team
  /// scans the level's count and value sum in sorted order (exclusive prefixes at positions
  /// 0..n), and each document adds the prefixes at its positions for the levels above and below.
  void accumulate(const Vector& value) {
    auto prefix_count = prefix_count_, prefix_sum = prefix_sum_;
    auto perm = perm_, plus = plus_, minus = minus_;
    auto count = count_, balance = balance_, sum = sum_;
    auto begin = begin_;
    auto level = level_;
    const int levels = levels_;
    Kokkos::parallel_for(
        "Kollective::RankSvm::sweep", Policy(space_, queries_, Kokkos::AUTO), KOKKOS_LAMBDA(const Member& team) {
          const std::int64_t first = begin(team.league_rank()), n = begin(team.league_rank() + 1) - first, base = 2 * first;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const std::int64_t k) {
            const std::int64_t i = perm(base + k);
            count(i) = balance(i) = sum(i) = 0;
          });
          for (int l = 0; l < levels; ++l) {
            team.team_barrier();
            Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, n + 1), [&](const std::int64_t k, double& partial, const bool final) {
              const bool member = k < n && level(perm(base + k)) == l;
              if (final) prefix_count(base + k) = partial;
              partial += member ? 1.0 : 0.0;
            });
            Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, n + 1), [&](const std::int64_t k, double& partial, const bool final) {
              const bool member = k < n && level(perm(base + k)) == l;
              if (final) prefix_sum(base + k) = partial;
              partial += member ? value(perm(base + k)) : 0.0;
            });
            team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const std::int64_t k) {
              const std::int64_t i = perm(base + k);
              if (level(i) < l) {  // l+: a higher level with z_j < z_i + 1
                count(i) += prefix_count(base + plus(i));
                balance(i) -= prefix_count(base + plus(i));
                sum(i) += prefix_sum(base + plus(i));
              } else if (level(i) > l) {  // l-: a lower level with z_j > z_i - 1
                const double c = prefix_count(base + n) - prefix_count(base + minus(i));
                count(i) += c;
                balance(i) += c;
                sum(i) += prefix_sum(base + n) - prefix_sum(base + minus(i));
              }
            });
          }
        });
  }

 private:
  ExecSpace space_;
  double C_;
  std::int64_t docs_ = 0, queries_ = 0;
  int features_ = 0, levels_ = 0;
  Kokkos::View<double**, Kokkos::LayoutLeft, Memory> x_;
  Kokkos::View<int*, Memory> level_;
  Kokkos::View<std::int64_t*, Memory> begin_, perm_, plus_, minus_;
  Vector z_, v_, r_, u_, key_, prefix_count_, prefix_sum_, count_, balance_, sum_;
  HvParts hv_parts_;
};

}  // namespace kollective::ranksvm::Impl

#endif
