#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_IMPL_HPP

/// \file Schulze_Impl.hpp
/// Kernels of the blocked (max, min) Floyd-Warshall over tile rows spread across ranks (one rank
/// holds them all when it solves alone). For pivot tile k:
///   1. the diagonal tile (k, k), closed in scratch by one team (a barrier per pivot row), and
///   2a. the row-k tiles from it, both on the rank that holds tile row k, which then broadcasts
///       that row (the pivot rows) to the others;
///   2b. each rank's column-k tiles from the closed diagonal tile, and
///   3. every other tile of each rank from its column-k tile and the pivot rows,
///      2 and 3 by one register-tiled kernel (8x8 cells per thread, operands in team scratch).
/// With non-negative strengths, updates with k == i or k == j never change a cell and i == j only
/// touches the diagonal, so no masks are needed; the diagonal is reset to 0 at the end. Padding
/// rows and columns are 0 and stay 0.
/// Do not include directly: include algorithms/schulze/Schulze.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/comm/ViewCollectives.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

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
  std::int64_t row0, col0;  ///< the tile's first row (in this rank's rows) and column

  static constexpr std::size_t scratch_bytes() { return sizeof(Strength) * tile * stride; }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    auto* d = static_cast<Strength*>(team.team_scratch(0).get_shmem(sizeof(Strength) * tile * stride));
    batched_team_copy<threads, tile * tile>(
        team.team_rank(), [&](int idx) { return p(row0 + idx / tile, col0 + idx % tile); },
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
        [&](int idx, Strength value) { p(row0 + idx / tile, col0 + idx % tile) = value; });
  }
};

/// Phases 2 and 3: out = max(out, min(A, B)) over the 64 pivots of tile k, for independent output
/// tiles. Every output tile (i, j) takes A = (i, k), in the same rows, and B = (k, j), in the pivot
/// rows. Phase 3 updates tile (i, j) from A and B, both final. Phase 2 updates the pivot-row tile
/// (k, j) from A = D* (the closed diagonal tile) and B = its own original values, and the
/// pivot-column tile (i, k) from A = its own original values and B = D*: the strongest path
/// through the pivot block ends with a direct edge from (or starts with one to) its last (first)
/// pivot, so no update depends on another and the same register-tiled kernel serves both.
///
/// The team stages A (transposed, each value broadcast to a full word) and B (packed words) in
/// scratch; each thread keeps sub x sub cells in registers across all pivots. Global memory moves
/// in 16-byte quads: rows are contiguous (LayoutRight) and extents are multiples of the tile, so
/// a row of 16-bit strengths can be read as aligned 32-bit words.
template <class ExecSpace, class Strength, class MemorySpace>
struct TileUpdates {
  using L = Lanes<Strength>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Paths = PathView<Strength, MemorySpace>;
  static constexpr int threads = team_threads<ExecSpace>;
  static constexpr int words_per_row = tile / L::per_word;  // words of one tile row
  static constexpr int quads_per_row = words_per_row / 4;
  static constexpr int words_per_sub = sub / L::per_word;  // words of one sub-tile row
  static constexpr int quads_per_sub = words_per_sub / 4;
  static constexpr int column_stride = tile + 1;  // odd: transposed stores spread over banks

  Paths rows;    ///< this rank's tile rows
  Paths pivots;  ///< the pivot rows (tile row k), closed and broadcast
  std::int64_t tiles, pivot;
  std::int64_t first_tile;  ///< the global tile row of rows' first tile row
  std::int64_t row_strip;   ///< phase 2: teams on the pivot rows first (tiles, or 0), then one per tile row
  bool strips;              ///< phase 2 (row_strip + tile rows teams) or phase 3 (tile rows x tiles)

  static constexpr std::size_t scratch_bytes() {
    return sizeof(std::uint32_t) * (tile * column_stride + tile * words_per_row) + 2 * sizeof(Quad);  // + alignment
  }

  /// The row `row` of `view` from column `col0` on, as quads.
  KOKKOS_FORCEINLINE_FUNCTION static Quad* quads(const Paths& view, std::int64_t row, std::int64_t col0) {
    return reinterpret_cast<Quad*>(&view(row, col0));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    // The output tile: its view and first row there, its column (in tiles).
    const std::int64_t team_index = team.league_rank();
    const bool in_pivots = strips && team_index < row_strip;
    std::int64_t out_i, out_j;
    if (in_pivots) {
      out_i = 0;
      out_j = team_index;
      if (out_j == pivot) return;  // the diagonal tile is closed already
    } else if (strips) {
      out_i = team_index - row_strip;
      out_j = pivot;
      if (first_tile + out_i == pivot) return;
    } else {
      out_i = team_index / tiles;
      out_j = team_index % tiles;
      if (first_tile + out_i == pivot || out_j == pivot) return;  // uniform across the team: before any barrier
    }
    const Paths& out = in_pivots ? pivots : rows;
    const std::int64_t row0 = out_i * tile, col0 = out_j * tile, k0 = pivot * tile;
    auto* column = static_cast<std::uint32_t*>(
        team.team_scratch(0).get_shmem_aligned(sizeof(std::uint32_t) * tile * column_stride, sizeof(Quad)));
    auto* row = static_cast<Quad*>(
        team.team_scratch(0).get_shmem_aligned(sizeof(std::uint32_t) * tile * words_per_row, sizeof(Quad)));
    const int rank = team.team_rank();

    batched_team_copy<threads, tile * quads_per_row>(
        rank, [&](int idx) { return quads(out, row0 + idx / quads_per_row, k0)[idx % quads_per_row]; },
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
        rank, [&](int idx) { return quads(pivots, idx / quads_per_row, col0)[idx % quads_per_row]; },
        [&](int idx, const Quad& quad) { row[idx] = quad; });
    team.team_barrier();

    const auto* row_words = reinterpret_cast<const std::uint32_t*>(row);
    for (int s = rank; s < subs_per_side * subs_per_side; s += threads) {
      const int sr = (s / subs_per_side) * sub, sc = (s % subs_per_side) * words_per_sub;
      std::uint32_t acc[sub][words_per_sub];
      KOLLECTIVE_UNROLL
      for (int r = 0; r < sub; ++r) {
        const Quad* cells = quads(out, row0 + sr + r, col0) + sc / 4;
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
        Quad* cells = quads(out, row0 + sr + r, col0) + sc / 4;
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

/// Which tile rows each rank holds: contiguous runs, as even as whole tiles allow (the last tile
/// row holds the padding). Alone, one rank holds them all and calls no collectives.
struct RowLayout {
  std::int64_t n = 0;               ///< alternatives
  std::int64_t tiles = 0;           ///< tiles per side of the padded matrix
  int ranks = 1;                    ///< ranks sharing the matrix
  int rank = 0;                     ///< this one
  bool shared = false;              ///< collectives between the ranks (false: this rank alone)
  comm::Communicator communicator;  ///< the ranks, where shared

  std::int64_t padded() const { return tiles * tile; }
  std::int64_t first_tile(int r) const { return tiles * r / ranks; }
  std::int64_t tile_rows(int r) const { return first_tile(r + 1) - first_tile(r); }
  /// Rows of rank r's part (in padded rows, so a multiple of the tile).
  std::int64_t padded_rows(int r) const { return tile_rows(r) * tile; }
  /// Rank r's alternatives: [first_row(r), first_row(r) + real_rows(r)).
  std::int64_t first_row(int r) const { return std::min(n, first_tile(r) * tile); }
  std::int64_t real_rows(int r) const { return std::min(n, first_tile(r + 1) * tile) - first_row(r); }
  int owner(std::int64_t tile_row) const {
    int r = 0;
    while (first_tile(r + 1) <= tile_row) ++r;
    return r;
  }
};

/// Tile rows of n alternatives for this rank alone.
inline RowLayout alone(std::int64_t n) {
  RowLayout layout;
  layout.n = n;
  layout.tiles = (n + tile - 1) / tile;
  return layout;
}

/// Tile rows of n alternatives spread over `ranks` ranks, as rank `rank` holds them.
inline RowLayout spread(std::int64_t n, int rank, int ranks) {
  RowLayout layout = alone(n);
  layout.ranks = ranks;
  layout.rank = rank;
  layout.shared = true;
  return layout;
}
/// The same over the ranks of `communicator`, for a shared solve.
inline RowLayout spread(std::int64_t n, const comm::Communicator& communicator) {
  RowLayout layout = spread(n, communicator.rank(), communicator.size());
  layout.communicator = communicator;
  return layout;
}
/// The layout of a solve of the whole matrix: shared by `communicator`'s ranks, or alone.
inline RowLayout whole_matrix_layout(std::int64_t n, const comm::Communicator& communicator) {
  return communicator.size() > 1 ? spread(n, communicator) : alone(n);
}

/// Runs all pivots in place on this rank's tile rows (padded rows x padded columns); returns the
/// seconds spent in broadcasts of the pivot rows (waits for the rank that closes them included).
template <class ExecSpace, class Strength, class MemorySpace>
double strongest_paths(const ExecSpace& space, const RowLayout& layout, const PathView<Strength, MemorySpace>& rows,
                       const Reporter& reporter = {}, PathView<Strength, MemorySpace> received = {}) {
  const std::int64_t tiles = layout.tiles, size = layout.padded(), own_tiles = layout.tile_rows(layout.rank);
  const std::int64_t first_tile = layout.first_tile(layout.rank);
  if (static_cast<std::int64_t>(rows.extent(0)) != own_tiles * tile ||
      static_cast<std::int64_t>(rows.extent(1)) != size) {
    fail("Schulze: the path rows must be ", own_tiles * tile, " x ", size, " (whole tiles)");
  }
  const int threads = team_threads<ExecSpace>;
  using Diagonal = DiagonalTile<ExecSpace, Strength, MemorySpace>;
  using Updates = TileUpdates<ExecSpace, Strength, MemorySpace>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  // The independent tiles (almost all the work). With 16-bit strengths, at least 6 teams per SM
  // (at most 168 registers a thread): nvcc then takes 127 registers instead of 96 and the paths
  // take slightly less time. 32-bit strengths stay unbounded (236 registers): bounded the same
  // way, they spill and take longer.
  using Bounds =
      std::conditional_t<sizeof(Strength) == 2, Kokkos::LaunchBounds<gpu_team_size, 6>, Kokkos::LaunchBounds<>>;
  using BoundedPolicy = Kokkos::TeamPolicy<ExecSpace, Bounds>;
  const auto scratch = Kokkos::PerTeam(Updates::scratch_bytes());
  // Where other ranks' pivot rows arrive (tile x padded: the caller's, else allocated here).
  if (layout.shared && layout.ranks > 1 && received.data() == nullptr) {
    received = PathView<Strength, MemorySpace>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Schulze::pivot_rows"), tile, size);
  }
  Kokkos::Profiling::ScopedRegion region("Kollective::Schulze::strongest_paths");
  Progress progress(reporter, "Schulze strongest paths (n=" + std::to_string(layout.n) + ")", tiles);
  double broadcast_seconds = 0;
  for (std::int64_t k = 0; k < tiles; ++k) {
    const int owner = layout.owner(k);
    const bool mine = owner == layout.rank;
    const std::int64_t local_row0 = (k - first_tile) * tile;
    const PathView<Strength, MemorySpace> pivots =
        mine ? PathView<Strength, MemorySpace>(
                   Kokkos::subview(rows, Kokkos::make_pair(local_row0, local_row0 + tile), Kokkos::ALL))
             : received;
    if (mine) {
      Kokkos::parallel_for("Kollective::Schulze::diagonal_tile",
                           Policy(space, 1, threads).set_scratch_size(0, Kokkos::PerTeam(Diagonal::scratch_bytes())),
                           Diagonal{rows, local_row0, k * tile});
      // The pivot rows, and (alone) the pivot column with them: both read only the closed tile.
      Kokkos::parallel_for(
          "Kollective::Schulze::pivot_strips",
          Policy(space, tiles + (layout.ranks == 1 ? own_tiles : 0), threads).set_scratch_size(0, scratch),
          Updates{rows, pivots, tiles, k, first_tile, tiles, true});
    }
    if (layout.ranks > 1) {
      broadcast_seconds += time_fenced(
          space, [&] { comm::broadcast_part(space, layout.communicator, pivots.data(), pivots.size(), owner); });
      Kokkos::parallel_for("Kollective::Schulze::pivot_column",
                           Policy(space, own_tiles, threads).set_scratch_size(0, scratch),
                           Updates{rows, pivots, tiles, k, first_tile, 0, true});
    }
    Kokkos::parallel_for("Kollective::Schulze::independent_tiles",
                         BoundedPolicy(space, own_tiles * tiles, threads).set_scratch_size(0, scratch),
                         Updates{rows, pivots, tiles, k, first_tile, 0, false});
    if (k % 16 == 15) {  // fencing every pivot would cost launch latency; progress is coarse
      space.fence();
      progress.update(k + 1);
    }
  }
  Kokkos::parallel_for(
      "Kollective::Schulze::reset_diagonal",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, own_tiles * tile),
      KOKKOS_LAMBDA(const std::int64_t i) { rows(i, first_tile * tile + i) = 0; });
  progress.finish();
  return broadcast_seconds;
}

/// Runs all pivots in place on a whole padded matrix (extents multiples of the tile), alone.
template <class ExecSpace, class Strength, class MemorySpace>
void strongest_paths(const ExecSpace& space, const PathView<Strength, MemorySpace>& p) {
  if (p.extent(0) % tile != 0 || p.extent(1) != p.extent(0)) {
    fail("Schulze: the path matrix must be square with extents a multiple of ", tile);
  }
  strongest_paths(space, alone(static_cast<std::int64_t>(p.extent(0))), p);
}

}  // namespace kollective::schulze::Impl

#endif
