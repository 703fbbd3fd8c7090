#ifndef KOLLECTIVE_ALGORITHMS_COALITION_SHARES_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_SHARES_IMPL_HPP

/// \file CoalitionShares_Impl.hpp
/// How the ranks that solve one coalition game together share each layer's blocks.
/// Do not include directly: include algorithms/coalition/Coalition.hpp.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kollective::coalition::Impl {

/// The blocks of a layer that one rank computes: runs of `run` consecutive colex ranks, dealt out
/// to the ranks in turn. (Halves would make one rank wait for the other: the upper colex half of a
/// layer takes longer than the lower, its sub-blocks lying further apart.) One rank: all, in order.
struct LayerShare {
  static constexpr std::uint64_t longest_run = 1024;
  std::uint64_t run = 1;
  std::uint64_t count = 0;  ///< blocks of this rank
  std::uint64_t share = 0;  ///< blocks of the rank with the most (rank 0)
  int rank = 0, ranks = 1;
  LayerShare() = default;
  LayerShare(std::uint64_t blocks, int rank_, int ranks_) : rank(rank_), ranks(ranks_) {
    const std::uint64_t p = static_cast<std::uint64_t>(ranks);
    run = Kokkos::max<std::uint64_t>(1, Kokkos::min(longest_run, blocks / (16 * p)));  // 16 runs per rank
    auto blocks_of = [&](std::uint64_t r) {
      const std::uint64_t runs = (blocks + run - 1) / run, last = runs - 1;
      if (r >= runs) return std::uint64_t{0};
      const std::uint64_t own = (runs - r + p - 1) / p;
      return own * run - (last % p == r ? last * run + run - blocks : 0);  // the last run may be short
    };
    count = blocks_of(static_cast<std::uint64_t>(rank));
    share = blocks_of(0);
  }
  /// Colex rank of this rank's i-th block.
  KOKKOS_INLINE_FUNCTION std::uint64_t block(std::uint64_t i) const {
    return (i / run * static_cast<std::uint64_t>(ranks) + static_cast<std::uint64_t>(rank)) * run + i % run;
  }
};

}  // namespace kollective::coalition::Impl

#endif
