#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_IMPL_HPP

/// \file Schulze_Impl.hpp
/// Kernels of the blocked (max, min) Floyd-Warshall. For pivot tile k:
///   1. the diagonal tile (k, k), closed in scratch by one team (a barrier per pivot row);
///   2. the row-k and column-k tiles from it, and
///   3. every other tile from the finished row and column tiles,
///      2 and 3 by one register-tiled kernel (8x8 cells per thread, operands in team scratch).
/// With non-negative strengths, updates with k == i or k == j never change a cell and i == j only
/// touches the diagonal, so no masks are needed; the diagonal is reset to 0 at the end. Padding
/// rows and columns are 0 and stay 0.
/// Do not include directly: include algorithms/schulze/Schulze.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

#include "algorithms/schulze/SchulzeTypes.hpp"
#include "core/kokkos_ext/Compat.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Progress.hpp"
#include "core/Timer.hpp"
#include "core/preferences/Pairwise.hpp"

namespace kollective::schulze::Impl {

constexpr int tile = 64;  ///< tile width (cells) of the blocked algorithm
constexpr int sub = 8;    ///< each thread owns sub x sub cells in phase 3
constexpr int subs_per_side = tile / sub;
constexpr int gpu_team_size = subs_per_side * subs_per_side;

/// Strengths are processed in 32-bit words: one 32-bit value, or two packed 16-bit values.
template <class Strength>
struct Lanes;

template <>
struct Lanes<std::uint32_t> {
  static constexpr int per_word = 1;
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t min(std::uint32_t a, std::uint32_t b) { return Kokkos::min(a, b); }
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t max(std::uint32_t a, std::uint32_t b) { return Kokkos::max(a, b); }
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t broadcast(std::uint32_t v) { return v; }
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t lane(std::uint32_t word, int) { return word; }
};

template <>
struct Lanes<std::uint16_t> {
  static constexpr int per_word = 2;
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t min(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __vminu2(a, b);
#else
    return Kokkos::min(a & 0xffffu, b & 0xffffu) | Kokkos::min(a >> 16, b >> 16) << 16;
#endif
  }
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t max(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __vmaxu2(a, b);
#else
    return Kokkos::max(a & 0xffffu, b & 0xffffu) | Kokkos::max(a >> 16, b >> 16) << 16;
#endif
  }
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t broadcast(std::uint32_t v) { return v * 0x00010001u; }
  /// Lane 0 is the lower address (the even column) on little-endian machines.
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t lane(std::uint32_t word, int which) {
    return which == 0 ? word & 0xffffu : word >> 16;
  }
};

/// 16 bytes, so rows of strengths move with one 128-bit access per thread.
struct alignas(16) Quad {
  std::uint32_t word[4];
};

/// Threads of a team: 1 on host backends (a team is one thread walking the whole tile).
template <class ExecSpace>
constexpr int team_threads = runs_on_host<ExecSpace> ? 1 : gpu_team_size;

/// Team-wide copy of Count items in batches: all loads of a batch are issued before its stores,
/// so a GPU thread keeps a batch of loads in flight (the compiler cannot reorder global loads
/// past scratch stores itself, as it cannot prove they do not alias).
template <int Threads, int Count, class Load, class Store>
KOKKOS_FORCEINLINE_FUNCTION void batched_team_copy(const int rank, const Load& load, const Store& store) {
  static_assert(Count % Threads == 0, "items must divide evenly among threads");
  constexpr int per_thread = Count / Threads;
  constexpr int batch = per_thread < 16 ? per_thread : 16;
  static_assert(per_thread % batch == 0, "batches must divide the items of a thread");
  for (int base = 0; base < per_thread; base += batch) {
    decltype(load(0)) staged[batch];
    KOLLECTIVE_UNROLL
    for (int b = 0; b < batch; ++b) staged[b] = load((base + b) * Threads + rank);
    KOLLECTIVE_UNROLL
    for (int b = 0; b < batch; ++b) store((base + b) * Threads + rank, staged[b]);
  }
}

template <class Strength, class MemorySpace>
using PathView = Kokkos::View<Strength**, Kokkos::LayoutRight, MemorySpace>;

/// Phase 1: closes the diagonal tile (k, k) in scratch, one team. Thread r owns row r; row kk is
/// read after a barrier. Scratch rows are padded to tile + 1 values, so a warp touching one
/// column hits distinct banks.
template <class ExecSpace, class Strength, class MemorySpace>
struct DiagonalTile {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int threads = team_threads<ExecSpace>;
  static constexpr int stride = tile + 1;

  PathView<Strength, MemorySpace> p;
  std::int64_t base;

  static constexpr std::size_t scratch_bytes() { return sizeof(Strength) * tile * stride; }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    auto* d = static_cast<Strength*>(team.team_scratch(0).get_shmem(sizeof(Strength) * tile * stride));
    batched_team_copy<threads, tile * tile>(
        team.team_rank(), [&](int idx) { return p(base + idx / tile, base + idx % tile); },
        [&](int idx, Strength value) { d[(idx / tile) * stride + idx % tile] = value; });
    team.team_barrier();
    // Each chunk's loads are issued before its stores: the compiler cannot reorder scratch loads
    // past scratch stores itself, and one load at a time would make every step latency-bound.
    constexpr int chunk = 16;
    for (int kk = 0; kk < tile; ++kk) {
      for (int r = team.team_rank(); r < tile; r += threads) {
        if (r == kk) continue;  // row kk cannot improve through itself
        const Strength through = d[r * stride + kk];
        for (int c0 = 0; c0 < tile; c0 += chunk) {
          Strength pivot_row[chunk], own[chunk];
          KOLLECTIVE_UNROLL
          for (int c = 0; c < chunk; ++c) {
            pivot_row[c] = d[kk * stride + c0 + c];
            own[c] = d[r * stride + c0 + c];
          }
          KOLLECTIVE_UNROLL
          for (int c = 0; c < chunk; ++c)
            d[r * stride + c0 + c] = Kokkos::max(own[c], Kokkos::min(through, pivot_row[c]));
        }
      }
      team.team_barrier();
    }
    batched_team_copy<threads, tile * tile>(
        team.team_rank(), [&](int idx) { return d[(idx / tile) * stride + idx % tile]; },
        [&](int idx, Strength value) { p(base + idx / tile, base + idx % tile) = value; });
  }
};

/// Phases 2 and 3: out = max(out, min(A, B)) over the 64 pivots of tile k, for independent output
/// tiles. Phase 3 updates tile (i, j) from A = (i, k) and B = (k, j), both final. Phase 2 updates
/// the pivot-row tile (k, j) from A = D* (the closed diagonal tile) and B = its own original
/// values, and the pivot-column tile (i, k) from A = its own original values and B = D*: the
/// strongest path through the pivot block ends with a direct edge from (or starts with one to)
/// its last (first) pivot, so no update depends on another and the same register-tiled kernel
/// serves both.
///
/// The team stages A (transposed, each value broadcast to a full word) and B (packed words) in
/// scratch; each thread keeps sub x sub cells in registers across all pivots. Global memory moves
/// in 16-byte quads: rows are contiguous (LayoutRight) and extents are multiples of the tile, so
/// a row of 16-bit strengths can be read as aligned 32-bit words.
template <class ExecSpace, class Strength, class MemorySpace>
struct TileUpdates {
  using L = Lanes<Strength>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int threads = team_threads<ExecSpace>;
  static constexpr int words_per_row = tile / L::per_word;  // words of one tile row
  static constexpr int quads_per_row = words_per_row / 4;
  static constexpr int words_per_sub = sub / L::per_word;  // words of one sub-tile row
  static constexpr int quads_per_sub = words_per_sub / 4;
  static constexpr int column_stride = tile + 1;  // odd: transposed stores spread over banks

  PathView<Strength, MemorySpace> p;
  std::int64_t tiles, pivot;
  bool strips;  ///< phase 2 (league 2 x tiles) or phase 3 (league tiles x tiles)

  static constexpr std::size_t scratch_bytes() {
    return sizeof(std::uint32_t) * (tile * column_stride + tile * words_per_row) + 2 * sizeof(Quad);  // + alignment
  }

  /// The row `row` of the matrix from column `col0` on, as quads.
  KOKKOS_FORCEINLINE_FUNCTION Quad* quads(std::int64_t row, std::int64_t col0) const {
    return reinterpret_cast<Quad*>(&p(row, col0));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    // Tile coordinates (in tiles) of the output and of the operands A (rows of the output, pivot
    // columns) and B (pivot rows, columns of the output).
    std::int64_t out_i, out_j;
    if (strips) {
      const bool in_row = team.league_rank() < tiles;
      const std::int64_t other = in_row ? team.league_rank() : team.league_rank() - tiles;
      out_i = in_row ? pivot : other;
      out_j = in_row ? other : pivot;
      if (other == pivot) return;  // the diagonal tile is closed already
    } else {
      out_i = team.league_rank() / tiles;
      out_j = team.league_rank() % tiles;
      if (out_i == pivot || out_j == pivot) return;  // uniform across the team: before any barrier
    }
    const std::int64_t row0 = out_i * tile, col0 = out_j * tile, k0 = pivot * tile;
    auto* column = static_cast<std::uint32_t*>(
        team.team_scratch(0).get_shmem_aligned(sizeof(std::uint32_t) * tile * column_stride, sizeof(Quad)));
    auto* row = static_cast<Quad*>(
        team.team_scratch(0).get_shmem_aligned(sizeof(std::uint32_t) * tile * words_per_row, sizeof(Quad)));
    const int rank = team.team_rank();

    batched_team_copy<threads, tile * quads_per_row>(
        rank, [&](int idx) { return quads(row0 + idx / quads_per_row, k0)[idx % quads_per_row]; },
        [&](int idx, const Quad& quad) {
          const int r = idx / quads_per_row, first = (idx % quads_per_row) * 4 * L::per_word;
          KOLLECTIVE_UNROLL
          for (int w = 0; w < 4; ++w) {
            KOLLECTIVE_UNROLL
            for (int lane = 0; lane < L::per_word; ++lane) {
              column[(first + w * L::per_word + lane) * column_stride + r] = L::broadcast(L::lane(quad.word[w], lane));
            }
          }
        });
    batched_team_copy<threads, tile * quads_per_row>(
        rank, [&](int idx) { return quads(k0 + idx / quads_per_row, col0)[idx % quads_per_row]; },
        [&](int idx, const Quad& quad) { row[idx] = quad; });
    team.team_barrier();

    const auto* row_words = reinterpret_cast<const std::uint32_t*>(row);
    for (int s = rank; s < subs_per_side * subs_per_side; s += threads) {
      const int sr = (s / subs_per_side) * sub, sc = (s % subs_per_side) * words_per_sub;
      std::uint32_t acc[sub][words_per_sub];
      KOLLECTIVE_UNROLL
      for (int r = 0; r < sub; ++r) {
        const Quad* cells = quads(row0 + sr + r, col0) + sc / 4;
        KOLLECTIVE_UNROLL
        for (int q = 0; q < quads_per_sub; ++q) {
          const Quad quad = cells[q];
          KOLLECTIVE_UNROLL
          for (int w = 0; w < 4; ++w) acc[r][q * 4 + w] = quad.word[w];
        }
      }
      // Two pivots per step: max(acc, max(m0, m1)) maps to one 3-input max on Hopper.
      for (int kk = 0; kk < tile; kk += 2) {
        const std::uint32_t* a0 = column + kk * column_stride + sr;
        const std::uint32_t* a1 = a0 + column_stride;
        const std::uint32_t* b0 = row_words + kk * words_per_row + sc;
        const std::uint32_t* b1 = b0 + words_per_row;
        KOLLECTIVE_UNROLL
        for (int r = 0; r < sub; ++r) {
          KOLLECTIVE_UNROLL
          for (int c = 0; c < words_per_sub; ++c) {
            acc[r][c] = L::max(acc[r][c], L::max(L::min(a0[r], b0[c]), L::min(a1[r], b1[c])));
          }
        }
      }
      KOLLECTIVE_UNROLL
      for (int r = 0; r < sub; ++r) {
        Quad* cells = quads(row0 + sr + r, col0) + sc / 4;
        KOLLECTIVE_UNROLL
        for (int q = 0; q < quads_per_sub; ++q) {
          Quad quad;
          KOLLECTIVE_UNROLL
          for (int w = 0; w < 4; ++w) quad.word[w] = acc[r][q * 4 + w];
          cells[q] = quad;
        }
      }
    }
  }
};

/// Runs all pivots in place on a padded matrix.
template <class ExecSpace, class Strength, class MemorySpace>
void strongest_paths(const ExecSpace& space, const PathView<Strength, MemorySpace>& p) {
  const std::int64_t size = p.extent(0);
  if (size % tile != 0 || p.extent(1) != p.extent(0)) {
    fail("Schulze: the path matrix must be square with extents a multiple of ", tile);
  }
  const std::int64_t tiles = size / tile;
  const int threads = team_threads<ExecSpace>;
  using Diagonal = DiagonalTile<ExecSpace, Strength, MemorySpace>;
  using Updates = TileUpdates<ExecSpace, Strength, MemorySpace>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  // The independent tiles (almost all the work). With 16-bit strengths, at least 6 teams per SM
  // (at most 168 registers a thread): nvcc then takes 127 registers instead of 96 and the paths
  // took 1.7% less time on an H200. 32-bit strengths stay unbounded (236 registers): bounded the
  // same way they spilled and took 8% longer.
  using Bounds =
      std::conditional_t<sizeof(Strength) == 2, Kokkos::LaunchBounds<gpu_team_size, 6>, Kokkos::LaunchBounds<>>;
  using BoundedPolicy = Kokkos::TeamPolicy<ExecSpace, Bounds>;
  Kokkos::Profiling::ScopedRegion region("Kollective::Schulze::strongest_paths");
  Progress progress("Schulze strongest paths (n=" + std::to_string(size) + ")", tiles);
  for (std::int64_t k = 0; k < tiles; ++k) {
    Kokkos::parallel_for("Kollective::Schulze::diagonal_tile",
                         Policy(space, 1, threads).set_scratch_size(0, Kokkos::PerTeam(Diagonal::scratch_bytes())),
                         Diagonal{p, k * tile});
    Kokkos::parallel_for(
        "Kollective::Schulze::pivot_strips",
        Policy(space, 2 * tiles, threads).set_scratch_size(0, Kokkos::PerTeam(Updates::scratch_bytes())),
        Updates{p, tiles, k, true});
    Kokkos::parallel_for(
        "Kollective::Schulze::independent_tiles",
        BoundedPolicy(space, tiles * tiles, threads).set_scratch_size(0, Kokkos::PerTeam(Updates::scratch_bytes())),
        Updates{p, tiles, k, false});
    if (k % 16 == 15) {  // fencing every pivot would cost launch latency; progress is coarse
      space.fence();
      progress.update(k + 1);
    }
  }
  Kokkos::parallel_for(
      "Kollective::Schulze::reset_diagonal",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, size),
      KOKKOS_LAMBDA(const std::int64_t i) { p(i, i) = 0; });
  progress.finish();
}

/// Largest link strength (doubled units) under a rule; decides the strength width.
template <class ExecSpace, class MemorySpace>
std::uint32_t max_link_strength(const ExecSpace& space, const preferences::PairwiseView<MemorySpace>& d,
                                LinkRule rule) {
  const std::int64_t n = d.extent(0);
  std::uint32_t largest = 0;
  const bool margin = rule == LinkRule::margin;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_reduce(
      "Kollective::Schulze::max_link_strength", Policy(space, {0, 0}, {n, n}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j, std::uint32_t& best) {
        const std::uint32_t forward = d(i, j), backward = d(j, i);
        const std::uint32_t strength = forward > backward ? (margin ? forward - backward : forward) : 0u;
        if (strength > best) best = strength;
      },
      Kokkos::Max<std::uint32_t>(largest));
  space.fence();
  return largest;
}

template <class Strength, class ExecSpace, class MemorySpace>
PathView<Strength, MemorySpace> link_strengths(const ExecSpace& space, const preferences::PairwiseView<MemorySpace>& d,
                                               LinkRule rule) {
  const std::int64_t n = d.extent(0);
  const std::int64_t padded = (n + tile - 1) / tile * tile;
  const std::int64_t bytes =
      checked_mul(checked_mul(padded, padded, "strength matrix"), sizeof(Strength), "strength matrix");
  require_device_memory(bytes, "the Schulze path matrix of " + std::to_string(n) + " alternatives");
  PathView<Strength, MemorySpace> p(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Schulze::paths"), padded, padded);
  const bool margin = rule == LinkRule::margin;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "Kollective::Schulze::link_strengths", Policy(space, {0, 0}, {padded, padded}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        Strength strength = 0;
        if (i < n && j < n && i != j) {
          const std::uint32_t forward = d(i, j), backward = d(j, i);
          if (forward > backward) strength = static_cast<Strength>(margin ? forward - backward : forward);
        }
        p(i, j) = strength;
      });
  return p;
}

/// Beaten counts and winner flags from a finished path matrix (one team per alternative).
template <class ExecSpace, class Strength, class MemorySpace>
void summarize(const ExecSpace& space, const PathView<Strength, MemorySpace>& p, int n, Result& result) {
  Kokkos::View<int*, MemorySpace> beaten(Kokkos::view_alloc(space, "Kollective::Schulze::beaten"), n);
  Kokkos::View<int*, MemorySpace> losses(Kokkos::view_alloc(space, "Kollective::Schulze::losses"), n);
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  Kokkos::parallel_for(
      "Kollective::Schulze::summarize", Policy(space, n, Kokkos::AUTO), KOKKOS_LAMBDA(const Member& team) {
        const int i = team.league_rank();
        int wins = 0, lost = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, n), [&](const int j, int& count) { count += p(i, j) > p(j, i) ? 1 : 0; },
            wins);
        // A barrier between two team reductions: Kokkos 3.4's CUDA team reduction kept its
        // partial results in one static __shared__ array and ended without a barrier, so a warp
        // starting the second overwrote them while another still read the first's (racecheck).
        team.team_barrier();
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, n), [&](const int j, int& count) { count += p(j, i) > p(i, j) ? 1 : 0; },
            lost);
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          beaten(i) = wins;
          losses(i) = lost;
        });
      });
  auto beaten_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), beaten);
  auto losses_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), losses);
  result.beaten.assign(beaten_host.data(), beaten_host.data() + n);
  result.winners.clear();
  for (int i = 0; i < n; ++i) {
    if (losses_host(i) == 0) result.winners.push_back(i);
  }
  result.ranking = rank_by_beaten(result.beaten);
}

template <class Strength, class ExecSpace, class MemorySpace>
Result solve_with(const ExecSpace& space, const preferences::PairwiseView<MemorySpace>& d, const Options& options) {
  const int n = static_cast<int>(d.extent(0));
  auto p = Impl::link_strengths<Strength>(space, d, options.rule);
  Result result;
  result.paths_seconds = time_fenced(space, [&] { Impl::strongest_paths(space, p); });
  result.alternatives = n;
  result.strength_bits = 8 * sizeof(Strength);
  Impl::summarize(space, p, n, result);
  if (options.keep_paths) {
    // Copy the padded matrix whole: a strided subview cannot be copied across memory spaces.
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
    result.paths.resize(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) result.paths[static_cast<size_t>(i) * n + j] = host(i, j);
    }
  }
  return result;
}

template <class ExecSpace, class MemorySpace>
Result solve(const ExecSpace& space, const preferences::PairwiseView<MemorySpace>& d, const Options& options) {
  const std::uint32_t largest = max_link_strength(space, d, options.rule);
  const bool fits16 = largest <= 0xffffu;
  if (options.width == StrengthWidth::bits16 && !fits16) {
    fail("Schulze: 16-bit strengths requested but the largest link strength is ", largest / 2.0,
         " (at most 32767.5 fits)");
  }
  // Host backends emulate the packed 16-bit min/max lane by lane, slower than 32-bit words, so
  // `auto` takes 16 bits on devices only.
  const bool use16 = options.width == StrengthWidth::bits16 ||
                     (options.width == StrengthWidth::automatic && fits16 && !runs_on_host<ExecSpace>);
  return use16 ? solve_with<std::uint16_t>(space, d, options) : solve_with<std::uint32_t>(space, d, options);
}

}  // namespace kollective::schulze::Impl

#endif
