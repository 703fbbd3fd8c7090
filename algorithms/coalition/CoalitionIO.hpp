#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IO_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IO_HPP

/// \file CoalitionIO.hpp
/// Coalition value files (Rahwan's text, Kollective's binary, sparse bids) and structure text.

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// Rahwan's text format: 2^n lines, line x holds v(mask x - 1) (bit i = agent i + 1). Values must
/// be finite; v(empty) must be 0; errors name the file and line. Read by the threads of Kokkos'
/// default host space (where Kokkos is initialized), 64 MiB of the file each at a time.
Game read_rahwan_text(const std::string& path);
void write_rahwan_text(const Game& game, const std::string& path);

/// Kollective's binary format for large n (little-endian): the 8 bytes "KLCSG\0v1", uint32 n,
/// uint32 value bytes (4: float, 8: double), the 2^n values v(mask) in mask order, and a uint64
/// FNV-1a checksum of the value bytes. The reader refuses wrong magic, n outside 1..40, a
/// truncated or over-long file, a checksum mismatch and non-finite values.
Game read_binary(const std::string& path);
void write_binary(const Game& game, const std::string& path, bool single_precision = false);

/// Sparse bids (combinatorial-auction style): a line `items N`, then one bid per line,
/// `price item item ...` (items 1..N, '#' starts a comment). Densified: v(S) = the best bid on
/// exactly the bundle S, 0 when there is none (unsold items are worth 0); the optimal
/// structure is then the revenue-maximising allocation.
Game read_bids(const std::string& path);

/// "text" (.txt), "binary" (.kcsg) or "bids" (.bids) by the file's extension; "" for another.
std::string format_from_extension(const std::string& path);
/// Reads a value file in `format` ("text", "binary" or "bids").
Game read_game(const std::string& path, const std::string& format);

/// "{1, 2}, {3}" with names (agent numbers by default).
std::string format_structure(const Structure& structure, const std::vector<std::string>& names);

namespace Impl {
/// read_rahwan_text with the file shared out in ranges of `range_bytes` (tests make them tiny).
Game read_rahwan_text(const std::string& path, std::int64_t range_bytes);
}  // namespace Impl

}  // namespace kollective::coalition

#endif
