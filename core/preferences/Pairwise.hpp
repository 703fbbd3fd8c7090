#ifndef KOLLECTIVE_CORE_PREFERENCES_PAIRWISE_HPP
#define KOLLECTIVE_CORE_PREFERENCES_PAIRWISE_HPP

/// \file Pairwise.hpp
/// The pairwise matrix d[i][j] = weight of ballots ranking i above j. A tie counts 1/2 to each
/// side, so counts are kept doubled (2 d[i][j]) in integers and stay exact.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/preferences/Profile.hpp"

namespace kollective::preferences {

/// Doubled pairwise counts on a memory space, row-major (n x n).
template <class MemorySpace>
using PairwiseView = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, MemorySpace>;

/// Compile-time checks of a caller's matrix of doubled counts (2 d[i][j]) passed to an algorithm:
/// a rank-2 View of unsigned integers of at most 32 bits, any layout, const allowed, that ExecSpace
/// can read.
template <class ExecSpace, class DoubledView>
constexpr void check_doubled_view_type() {
  static_assert(Kokkos::is_view<DoubledView>::value, "the doubled counts must be a Kokkos::View");
  static_assert(DoubledView::rank() == 2, "the doubled counts must be a rank-2 View (n x n)");
  using Value = typename DoubledView::non_const_value_type;
  static_assert(std::is_integral<Value>::value && std::is_unsigned<Value>::value && sizeof(Value) <= 4,
                "the doubled counts must be unsigned integers of at most 32 bits (e.g. std::uint32_t)");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename DoubledView::memory_space>::accessible,
                "the doubled counts must be in a memory space the execution space can read");
}

/// Fails unless `doubled` is square; `caller` begins the message.
template <class DoubledView>
void check_square(const DoubledView& doubled, const char* caller) {
  if (doubled.extent(0) != doubled.extent(1)) {
    fail(caller, ": the doubled counts are ", doubled.extent(0), " x ", doubled.extent(1), ", not square");
  }
  if (doubled.extent(0) == 0) fail(caller, ": the doubled counts are 0 x 0: an election needs an alternative");
}

/// Host copy with names, for IO and references.
struct PairwiseCounts {
  int alternatives = 0;
  std::vector<std::string> names;
  std::vector<std::uint32_t> doubled;  ///< n*n, row-major
  /// Counted from ballots that each rank every alternative without ties (PrefLib's SOC): set by
  /// pairwise_reference, kept by Kemeny's restriction to a component; false for matrices read,
  /// generated on the device or passed from Python. Clear it when changing `doubled`.
  bool strict_complete = false;
  /// For a weight matrix w that is not a count (signed weights, from_weights), `doubled` keeps each
  /// pair's margin, 2 max(0, w[i][j] - w[j][i]), and `shift` is twice the sum over pairs i < j of
  /// min(w[i][j], w[j][i]), which every ranking pays: a ranking's distance in w is (its distance in
  /// `doubled` + shift) / 2. 0 for counts.
  std::int64_t shift = 0;
  std::uint32_t at(int i, int j) const { return doubled[static_cast<size_t>(i) * alternatives + j]; }
};

/// Fails, beginning with `caller`, unless `counts` is whole: at least one alternative, n * n
/// doubled counts and, where `names_needed`, n names.
void check_counts(const PairwiseCounts& counts, const char* caller, bool names_needed);

/// The caller's View of doubled counts (check_doubled_view_type) copied to host counts, the
/// alternatives named 1..n; `caller` begins the messages.
template <class ExecSpace, class DoubledView>
PairwiseCounts counts_from_view(const DoubledView& doubled, const char* caller) {
  check_doubled_view_type<ExecSpace, DoubledView>();
  check_square(doubled, caller);
  const int n = static_cast<int>(doubled.extent(0));
  const std::int64_t cells = checked_mul(n, n, "pairwise matrix");  // the counts, and a device View's mirror
  constexpr bool host_view =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename DoubledView::memory_space>::accessible;
  require_host_memory(
      checked_mul(cells, 4 + (host_view ? 0 : sizeof(typename DoubledView::value_type)), "pairwise matrix"),
      std::string(caller) + ": the pairwise counts of " + std::to_string(n) + " alternatives");
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), doubled);
  PairwiseCounts counts;
  counts.alternatives = n;
  counts.names = numbered_names(n);
  counts.doubled.resize(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) counts.doubled[static_cast<std::size_t>(i) * n + j] = host(i, j);
  }
  return counts;
}

/// The most alternatives of a signed weight matrix: its sums stay within 64 bits.
constexpr int max_weighted_alternatives = 65536;

/// The counts of a signed weight matrix (n x n, row-major, every cell of magnitude below 2^31; the
/// diagonal is ignored, as no ranking places an alternative before itself): see
/// PairwiseCounts::shift. Fails, naming `path` and the pair, where two cells of a pair differ by
/// 2^31 or more (the doubled margins are 32-bit), or n exceeds max_weighted_alternatives.
PairwiseCounts from_weights(const std::vector<std::int64_t>& weights, int n, std::vector<std::string> names,
                            const std::string& path);

/// Reads a weight matrix in LOLIB's format (the linear ordering library's): an optional first line
/// naming the instance (not a number), then n, then n x n whitespace-separated integers, row by
/// row (rows may wrap over lines); negative values allowed, the diagonal ignored; alternatives are
/// named 1..n. The name line may come again after the matrix (as in some of LOLIB's own files);
/// nothing else may. Errors name the file and line.
PairwiseCounts read_lolib(const std::string& path);

/// Serial reference: doubled counts straight from the ballots.
PairwiseCounts pairwise_reference(const Profile& profile);

/// What the cells of a matrix file are: counts of voters (non-negative, whole or ending in .5), or
/// signed integer weights of a weighted tournament (from_weights).
enum class Cells { counts, signed_weights };

/// Reads an RFC 4180 CSV matrix: an optional header row of distinct names (first cell empty or
/// not a number), a leading name column only with a header, cells as `cells` says; for counts the
/// diagonal must be 0 or empty, for signed weights it is ignored. Errors name the file and line.
PairwiseCounts read_pairwise_csv(const std::string& path, Cells cells = Cells::counts);
/// Writes the matrix with a header row and a name column (core/Csv.hpp's writer).
void write_pairwise_csv(const PairwiseCounts& counts, const std::string& path);

/// Rows [first, first + forward.extent(0)) of the doubled counts, as one rank holds them when the
/// ranks share a solve: forward(r, j) = 2 d[first + r][j] and backward(r, j) = 2 d[j][first + r],
/// so the rank needs no other rank's rows to compare both directions of a pair.
template <class MemorySpace>
struct PairwiseRows {
  std::int64_t first = 0;
  PairwiseView<MemorySpace> forward, backward;
  std::int64_t count() const { return static_cast<std::int64_t>(forward.extent(0)); }
};

namespace Impl {

/// Ballots as the device builders read them: each alternative's position, and the weights.
template <class MemorySpace>
struct StagedBallots {
  Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> position;
  Kokkos::View<std::int64_t*, MemorySpace> weight;

  /// 2 d[i][j] summed over the ballots (a tie counts 1 to each side).
  KOKKOS_INLINE_FUNCTION std::uint32_t doubled(std::int64_t i, std::int64_t j) const {
    std::int64_t sum = 0;
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(weight.extent(0)); ++b) {
      const int pi = position(b, i), pj = position(b, j);
      const std::int64_t above = pi < pj ? 2 : (pi == pj && pi != unranked && i != j ? 1 : 0);
      sum += above * weight(b);
    }
    return static_cast<std::uint32_t>(sum);
  }
};

/// Checks the weights and the memory (`cells` counts plus the ballots) and copies the ballots.
template <class ExecSpace>
StagedBallots<typename ExecSpace::memory_space> stage_ballots(const ExecSpace& space, const Profile& profile,
                                                              std::int64_t cells) {
  const int n = profile.alternatives;
  const auto ballots = static_cast<std::int64_t>(profile.ballots.size());
  if (2 * profile.total_weight() > std::int64_t{0xffffffff}) {
    fail("total voter weight ", profile.total_weight(), " is too large for 32-bit doubled pairwise counts");
  }
  require_memory(memory_kind<typename ExecSpace::memory_space>(),
                 checked_mul(cells, 4, "pairwise matrix") +
                     checked_mul(checked_mul(ballots, n, "ballot positions"), 4, "ballot positions") + 8 * ballots,
                 "the pairwise matrix of " + std::to_string(n) + " alternatives");
  StagedBallots<typename ExecSpace::memory_space> staged;
  staged.position = decltype(staged.position)(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::positions"), ballots, n);
  staged.weight = decltype(staged.weight)(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::weights"), ballots);
  auto position_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), staged.position);
  auto weight_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), staged.weight);
  for (std::int64_t b = 0; b < ballots; ++b) {
    const auto pos = positions(profile.ballots[b], n);
    for (int a = 0; a < n; ++a) position_host(b, a) = pos[a];
    weight_host(b) = profile.ballots[b].count;
  }
  Kokkos::deep_copy(space, staged.position, position_host);
  Kokkos::deep_copy(space, staged.weight, weight_host);
  return staged;
}

/// The doubled count of the random tournament of random_pairwise for cell (i, j).
KOKKOS_INLINE_FUNCTION std::uint32_t random_doubled(std::uint64_t seed, std::int64_t size, std::uint32_t voters,
                                                    std::int64_t i, std::int64_t j) {
  const std::int64_t low = i < j ? i : j, high = i < j ? j : i;
  const auto for_low = static_cast<std::uint32_t>(
      bounded(hash_draw(seed, static_cast<std::uint64_t>(low * size + high)), voters + 1ull));
  return i == j ? 0u : 2u * (i == low ? for_low : voters - for_low);
}

/// Fails unless [first, first + count) lies in [0, n).
inline void check_row_range(std::int64_t n, std::int64_t first, std::int64_t count) {
  if (first < 0 || count < 0 || first + count > n) {
    fail("pairwise rows [", first, ", ", first + count, ") lie outside the ", n, " alternatives");
  }
}

/// Uninitialized rows [first, first + count) of an n x n matrix, both directions, after checking
/// that they lie in the matrix and fit in device memory.
template <class ExecSpace>
PairwiseRows<typename ExecSpace::memory_space> allocate_rows(const ExecSpace& space, std::int64_t n, std::int64_t first,
                                                             std::int64_t count) {
  check_row_range(n, first, count);
  require_memory(memory_kind<typename ExecSpace::memory_space>(),
                 checked_mul(checked_mul(8, count, "pairwise rows"), n, "pairwise rows"),
                 "rows of the pairwise matrix of " + std::to_string(n) + " alternatives");
  using View = PairwiseView<typename ExecSpace::memory_space>;
  PairwiseRows<typename ExecSpace::memory_space> rows;
  rows.first = first;
  rows.forward =
      View(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::forward_rows"), count, n);
  rows.backward =
      View(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::backward_rows"), count, n);
  return rows;
}

/// Rows [first, first + count) of an n x n matrix, both directions, from cell(i, j).
template <class ExecSpace, class Cell>
PairwiseRows<typename ExecSpace::memory_space> fill_rows(const ExecSpace& space, std::int64_t n, std::int64_t first,
                                                         std::int64_t count, const Cell& cell) {
  PairwiseRows<typename ExecSpace::memory_space> rows = allocate_rows(space, n, first, count);
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  const auto forward = rows.forward, backward = rows.backward;
  Kokkos::parallel_for(
      "Kollective::Pairwise::rows", Policy(space, {0, 0}, {count, n}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t r, const std::int64_t j) {
        forward(r, j) = cell(first + r, j);
        backward(r, j) = cell(j, first + r);
      });
  space.fence();
  return rows;
}

}  // namespace Impl

/// Device builder: one work item per (i, j) cell in MDRange tiles, looping over ballots.
template <class ExecSpace>
PairwiseView<typename ExecSpace::memory_space> build_pairwise(const ExecSpace& space, const Profile& profile) {
  using MemorySpace = typename ExecSpace::memory_space;
  const int n = profile.alternatives;
  const auto staged = Impl::stage_ballots(space, profile, checked_mul(n, n, "pairwise matrix"));
  PairwiseView<MemorySpace> doubled(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::doubled"), n, n);
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "Kollective::Pairwise::build", Policy(space, {0, 0}, {n, n}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { doubled(i, j) = staged.doubled(i, j); });
  space.fence();  // the staging views die at return
  return doubled;
}

/// Rows [first, first + count) of build_pairwise's matrix, both directions, from every ballot
/// (each rank reads all ballots: a rank's rows need every ballot, and ballots are far smaller
/// than the rows of a large election).
template <class ExecSpace>
PairwiseRows<typename ExecSpace::memory_space> build_pairwise_rows(const ExecSpace& space, const Profile& profile,
                                                                   std::int64_t first, std::int64_t count) {
  const std::int64_t n = profile.alternatives;
  Impl::check_row_range(n, first, count);  // before staging the ballots
  const auto staged =
      Impl::stage_ballots(space, profile, checked_mul(checked_mul(2, count, "pairwise rows"), n, "pairwise rows"));
  return Impl::fill_rows(
      space, n, first, count,
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { return staged.doubled(i, j); });
}

/// Copies a device matrix to host counts with names.
template <class MemorySpace>
PairwiseCounts to_host(const PairwiseView<MemorySpace>& doubled, std::vector<std::string> names) {
  PairwiseCounts counts;
  counts.alternatives = static_cast<int>(doubled.extent(0));
  counts.names = std::move(names);
  counts.doubled.resize(doubled.size());
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
      counts.doubled.data(), doubled.extent(0), doubled.extent(1));
  Kokkos::deep_copy(host, doubled);
  return counts;
}

/// Copies host counts to a device matrix.
template <class ExecSpace>
PairwiseView<typename ExecSpace::memory_space> to_device(const ExecSpace& space, const PairwiseCounts& counts) {
  check_counts(counts, "preferences::to_device", false);
  const int n = counts.alternatives;
  require_memory(memory_kind<typename ExecSpace::memory_space>(),
                 checked_mul(checked_mul(n, n, "pairwise matrix"), 4, "pairwise matrix"),
                 "the pairwise matrix of " + std::to_string(n) + " alternatives");
  PairwiseView<typename ExecSpace::memory_space> doubled(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::doubled"), n, n);
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
      counts.doubled.data(), n, n);
  Kokkos::deep_copy(space, doubled, host);
  space.fence();
  return doubled;
}

/// Rows [first, first + count) of host counts on the device, both directions.
template <class ExecSpace>
PairwiseRows<typename ExecSpace::memory_space> pairwise_rows_to_device(const ExecSpace& space,
                                                                       const PairwiseCounts& counts, std::int64_t first,
                                                                       std::int64_t count) {
  const std::int64_t n = counts.alternatives;
  PairwiseRows<typename ExecSpace::memory_space> rows = Impl::allocate_rows(space, n, first, count);
  auto forward = Kokkos::create_mirror_view(Kokkos::HostSpace(), rows.forward);
  auto backward = Kokkos::create_mirror_view(Kokkos::HostSpace(), rows.backward);
  for (std::int64_t r = 0; r < count; ++r) {
    for (std::int64_t j = 0; j < n; ++j) {
      forward(r, j) = counts.at(static_cast<int>(first + r), static_cast<int>(j));
      backward(r, j) = counts.at(static_cast<int>(j), static_cast<int>(first + r));
    }
  }
  Kokkos::deep_copy(space, rows.forward, forward);
  Kokkos::deep_copy(space, rows.backward, backward);
  space.fence();  // the host mirrors die at return
  return rows;
}

/// A random tournament profile generated on the device: for each pair i < j, `voters` voters
/// split uniformly at random between i > j and j > i. Reproducible from `seed` on every backend.
template <class ExecSpace>
PairwiseView<typename ExecSpace::memory_space> random_pairwise(const ExecSpace& space, int n, std::uint32_t voters,
                                                               std::uint64_t seed) {
  if (voters > 0x7fffffffu) fail("random pairwise matrix: at most 2^31 - 1 voters, got ", voters);
  require_memory(memory_kind<typename ExecSpace::memory_space>(),
                 checked_mul(checked_mul(n, n, "pairwise matrix"), 4, "pairwise matrix"),
                 "the pairwise matrix of " + std::to_string(n) + " alternatives");
  PairwiseView<typename ExecSpace::memory_space> doubled(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::Pairwise::doubled"), n, n);
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t size = n;
  Kokkos::parallel_for(
      "Kollective::Pairwise::random", Policy(space, {0, 0}, {size, size}, {16, 16}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        doubled(i, j) = Impl::random_doubled(seed, size, voters, i, j);
      });
  space.fence();
  return doubled;
}

/// Rows [first, first + count) of random_pairwise's matrix, both directions.
template <class ExecSpace>
PairwiseRows<typename ExecSpace::memory_space> random_pairwise_rows(const ExecSpace& space, int n, std::uint32_t voters,
                                                                    std::uint64_t seed, std::int64_t first,
                                                                    std::int64_t count) {
  if (voters > 0x7fffffffu) fail("random pairwise matrix: at most 2^31 - 1 voters, got ", voters);
  const std::int64_t size = n;
  return Impl::fill_rows(
      space, size, first, count, KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        return Impl::random_doubled(seed, size, voters, i, j);
      });
}

}  // namespace kollective::preferences

#endif
