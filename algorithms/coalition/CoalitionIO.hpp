#ifndef KOLLECTIVE_ALGORITHMS_COALITION_IO_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_IO_HPP

/// \file CoalitionIO.hpp
/// Coalition value files (Rahwan's text, Kollective's binary, sparse bids) and structure text.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// Rahwan's text format: 2^n lines, line x holds v(mask x - 1) (bit i = agent i + 1). Values must
/// be finite; v(empty) must be 0; errors name the file and line. Read by the threads of Kokkos'
/// default host space (where Kokkos is initialized), 64 MiB of the file each at a time.
Game read_rahwan_text(const std::string& path);
void write_rahwan_text(const Game& game, const std::string& path);

/// Kollective's binary format for large n (little-endian): the 8 bytes "KLCSG\0v2", uint32 n,
/// uint32 value bytes (4: float, 8: double), uint64 c (values per checksum, 1..2^26), the 2^n
/// values v(mask) in mask order, then one uint64 FNV-1a checksum per c values (of their bytes;
/// the last group may be shorter), so that a file is checked by many threads at once. Version 1
/// ("KLCSG\0v1": no c, one checksum of all the value bytes) is still read. The reader refuses
/// wrong magic, n outside 1..40, a truncated or over-long file, a checksum mismatch (naming the
/// values) and non-finite values.
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

/// A text or binary value file read in order, a batch of values at a time, into any memory: the
/// host's vector (read_value_file) or a device View (coalition::read_values), with one batch on
/// the host at a time. A text file is shared out in ranges of `range_bytes` (tests make them
/// tiny), their newlines counted first, then each batch of ranges parsed by the host threads.
class ValueFileReader {
 public:
  /// Opens the file ("text" or "binary") and reads its shape: a binary header, a text's lines.
  ValueFileReader(const std::string& path, const std::string& format, std::int64_t range_bytes = std::int64_t{1} << 26);
  ~ValueFileReader();
  /// The slots read() fills in all: 2^n values, or a text file's lines (trailing blank ones too).
  std::int64_t slots() const;
  /// The smallest capacity read() accepts (a text range's lines).
  std::int64_t batch_limit() const;
  /// Reads the next slots into out (at most `capacity`, at least batch_limit()); how many, 0 at the end.
  std::int64_t read(double* out, std::int64_t capacity);
  /// After the last read: fails at the file's first problem, as a line-by-line read would (a text
  /// line that is not a value, a blank line before a value, 2^n lines, v(empty) = `first_value` not
  /// 0; a binary checksum), else returns n. The values' range is the caller's to check.
  int finish(double first_value);

 private:
  struct State;
  std::unique_ptr<State> state_;
  void open_binary();
  std::int64_t read_binary_v1(double* out, std::int64_t capacity);
  std::int64_t read_checked_groups(double* out, std::int64_t capacity);
};

/// write_binary with `group_values` values per checksum (tests make groups tiny).
void write_binary(const Game& game, const std::string& path, bool single_precision, std::uint64_t group_values);

/// A text or binary value file read on the host (ValueFileReader), checked as read_game checks it.
Game read_value_file(const std::string& path, const std::string& format,
                     std::int64_t range_bytes = std::int64_t{1} << 26);

}  // namespace Impl

}  // namespace kollective::coalition

#endif
