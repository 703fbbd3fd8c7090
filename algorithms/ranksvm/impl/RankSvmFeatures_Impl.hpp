#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_FEATURES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_FEATURES_IMPL_HPP

/// \file RankSvmFeatures_Impl.hpp
/// The feature matrix X on the device and its two products, X.v and X'.u, each summing in a
/// fixed order so that a training run is bit-reproducible.
/// Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Timer.hpp"

namespace kollective::ranksvm::Impl {

/// Feature: the type X is stored in on the device (double, or float to halve its traffic;
/// products and sums are always double).
template <class ExecSpace, class Feature>
class FeatureMatrix {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Vector = Kokkos::View<double*, Memory>;
  using Matrix = Kokkos::View<Feature**, Kokkos::LayoutLeft, Memory>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  static constexpr std::int64_t transpose_chunk = 4096;  ///< documents per X'u team
  /// Feature columns per X'u team: the fastest on a GPU (perf/benchmarks/BenchRankSvm.cpp).
  static constexpr int transpose_columns = sizeof(Feature) == 4 ? 4 : 2;

  FeatureMatrix() = default;

  /// X column-major on the device: gemv "N" (a thread per document) and transpose_times both
  /// read it in contiguous runs. The row-major host matrix is copied as it is (not at all on a
  /// host backend) and transposed on the device (a host transpose took longer than the training).
  /// `rows`: data's X, row-major, where it lives (data.x, or a block of a larger set's X).
  /// `storage`: docs x features to hold X (a workspace's), or none: allocated here.
  FeatureMatrix(const ExecSpace& space, const RankData& data, const double* rows, Matrix storage = {})
      : space_(space), docs_(data.docs), features_(data.features) {
    upload(rows, storage);
  }

  // Public only because CUDA's extended lambdas cannot live in constructors or private members.
  void upload(const double* rows_on_host, const Matrix& storage) {
    x_ = storage.data() != nullptr
             ? storage
             : Matrix(Kokkos::view_alloc(space_, Kokkos::WithoutInitializing, "Kollective::RankSvm::X"), docs_,
                      features_);
    Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
        rows_on_host, docs_, features_);
    auto rows = Kokkos::create_mirror_view_and_copy(Memory(), host);
    auto x = x_;
    Kokkos::parallel_for(
        "Kollective::RankSvm::transpose_x",
        Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space_, {0, 0},
                                                          {docs_, static_cast<std::int64_t>(features_)}),
        KOKKOS_LAMBDA(const std::int64_t d, const std::int64_t f) { x(d, f) = static_cast<Feature>(rows(d, f)); });
    const std::int64_t chunks = (docs_ + transpose_chunk - 1) / transpose_chunk;
    require_memory(memory_kind<Memory>(), checked_mul(chunks, features_, "chunks x features") * 8,
                   "RankSVM's partial sums of X'u (" + std::to_string(chunks) + " chunks x " +
                       std::to_string(features_) + " features)");
    chunk_partial_ = Kokkos::View<double**, Kokkos::LayoutRight, Memory>(
        Kokkos::view_alloc(space_, "Kollective::RankSvm::chunk_partial"), chunks, features_);
    space_.fence();
  }

  /// Bytes of X as stored on the device, for `docs` x `features`.
  static std::int64_t bytes(std::int64_t docs, int features) {
    return docs * features * static_cast<std::int64_t>(sizeof(Feature));
  }
  std::int64_t bytes() const { return bytes(docs_, features_); }

  /// Seconds for one pass over X at the device's copy bandwidth (the floor of X.v and X'.u):
  /// X's bytes over the best of three fenced copies of up to 512 MiB (bytes read + written).
  double time_pass() const {
    const std::int64_t length = std::min<std::int64_t>(docs_ * features_, std::int64_t{1} << 26);
    require_memory(memory_kind<Memory>(), 2 * 8 * length, "RankSVM's bandwidth probe (measure_bandwidth)");
    Vector from(Kokkos::view_alloc(space_, "Kollective::RankSvm::copy_from"), length),
        to(Kokkos::view_alloc(space_, Kokkos::WithoutInitializing, "Kollective::RankSvm::copy_to"), length);
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 3; ++k)
      best = std::min(best, time_fenced(space_, [&] { Kokkos::deep_copy(space_, to, from); }));
    const double bandwidth = 2.0 * 8.0 * static_cast<double>(length) / best;
    return static_cast<double>(bytes(docs_, features_)) / bandwidth;
  }

  /// out = Xv, a thread per document summing its features in order: bit-reproducible, unlike
  /// KokkosBlas::gemv("N") of Kokkos Kernels 4.6, whose CUDA kernel for LayoutLeft adds the
  /// partial sums of a team's column blocks by shared-memory atomics (runs differed in the last
  /// bits). X is LayoutLeft, so the threads of a warp read consecutive entries of each column.
  void times(const Vector& v, const Vector& out) const {
    auto x = x_;
    const int features = features_;
    Kokkos::parallel_for(
        "Kollective::RankSvm::X_times", Kokkos::RangePolicy<ExecSpace>(space_, 0, docs_),
        KOKKOS_LAMBDA(const std::int64_t d) {
          double sum = 0;
          for (int f = 0; f < features; ++f) sum += static_cast<double>(x(d, f)) * v(f);
          out(d) = sum;
        });
  }

  /// out = X'u. KokkosBlas::gemv("T") of Kokkos Kernels 3.4 streams X at a few percent of a GPU's
  /// memory bandwidth (a team per column), so this is written out. Here a team takes `Columns`
  /// feature columns of a chunk of documents: each thread reads u_d once and the columns' entries
  /// of d (coalesced, `Columns` loads in flight), and reduces its sums with the team through
  /// scratch. A team per feature then adds the chunks' partials. Every sum runs in a fixed order
  /// (no atomics), so a training run is bit-reproducible. perf/benchmarks/BenchRankSvm.cpp times
  /// the choices of Columns.
  void transpose_times(const Vector& u, const Vector& out) const { transpose_times_by<transpose_columns>(u, out); }

  template <int Columns>
  void transpose_times_by(const Vector& u, const Vector& out) const {
    using Scratch = Kokkos::View<double**, Kokkos::LayoutLeft, typename ExecSpace::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    auto x = x_;
    auto partial = chunk_partial_;
    const std::int64_t docs = docs_;
    const int features = features_;
    const std::int64_t chunks = partial.extent(0);
    const std::int64_t groups = (features + Columns - 1) / Columns;
    const int team_size = runs_on_host<ExecSpace> ? 1 : 256;  // a power of two (the tree below)
    // Float X: at least 5 teams of 256 per SM (at most 51 registers a thread). Unbounded, Kokkos
    // 4.6's team driver (its level-1 scratch lock, compiled in even when unused) takes this kernel
    // to 50 registers, room for 4 teams only, and X'u runs slower. Double X (2 columns) takes 32
    // registers unbounded; bounded, it would take 40.
    using Bounds = std::conditional_t<Columns == 4, Kokkos::LaunchBounds<256, 5>, Kokkos::LaunchBounds<>>;
    Kokkos::TeamPolicy<ExecSpace, Bounds> policy(space_, chunks * groups, team_size);
    policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(team_size, Columns)));
    Kokkos::parallel_for(
        "Kollective::RankSvm::transpose_times", policy, KOKKOS_LAMBDA(const Member& team) {
          const int f0 = static_cast<int>(team.league_rank() % groups) * Columns;
          const std::int64_t chunk = team.league_rank() / groups;
          const std::int64_t first = chunk * transpose_chunk;
          const std::int64_t last = first + transpose_chunk < docs ? first + transpose_chunk : docs;
          const int rank = team.team_rank(), size = team.team_size();
          double column[Columns] = {};
          for (std::int64_t d = first + rank; d < last; d += size) {
            const double ud = u(d);
            for (int k = 0; k < Columns; ++k) {
              if (f0 + k < features) column[k] += x(d, f0 + k) * ud;
            }
          }
          Scratch sums(team.team_scratch(0), size, Columns);
          for (int k = 0; k < Columns; ++k) sums(rank, k) = column[k];
          team.team_barrier();
          for (int stride = size / 2; stride > 0; stride /= 2) {
            if (rank < stride) {
              for (int k = 0; k < Columns; ++k) sums(rank, k) += sums(rank + stride, k);
            }
            team.team_barrier();
          }
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            for (int k = 0; k < Columns && f0 + k < features; ++k) partial(chunk, f0 + k) = sums(0, k);
          });
        });
    const Policy per_feature = runs_on_host<ExecSpace> ? Policy(space_, features, 1) : Policy(space_, features, 128);
    Kokkos::parallel_for(
        "Kollective::RankSvm::transpose_times_total", per_feature, KOKKOS_LAMBDA(const Member& team) {
          const int f = team.league_rank();
          double total = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, chunks),
              [&](const std::int64_t chunk, double& sum) { sum += partial(chunk, f); }, total);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { out(f) = total; });
        });
  }

 private:
  ExecSpace space_;
  std::int64_t docs_ = 0;
  int features_ = 0;
  Matrix x_;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> chunk_partial_;  ///< X'u per chunk of documents and feature
};

}  // namespace kollective::ranksvm::Impl

#endif
