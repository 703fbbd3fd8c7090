#ifndef KOLLECTIVE_CORE_TEXTINPUT_HPP
#define KOLLECTIVE_CORE_TEXTINPUT_HPP

/// \file TextInput.hpp
/// Opening input files the one way every reader does: a missing file, a directory or an
/// unreadable file is refused with a message naming the path; text readers get lines with their
/// 1-based numbers, without a leading UTF-8 byte-order mark (spreadsheets write one) and
/// without the CR of CRLF line ends.

#include <cstdint>
#include <fstream>
#include <string>

namespace kollective {

/// Fails unless `path` names a regular file (not a folder, a pipe, a socket, nor a device such
/// as /dev/zero that never ends); `what` names the kind of input in the message ("PrefLib file",
/// "ranking data", ...).
void check_input_file(const std::string& path, const std::string& what);

/// Opens a checked input file (binary mode: no newline translation).
std::ifstream open_input(const std::string& path, const std::string& what);

/// Reads a text input line by line.
class LineReader {
 public:
  LineReader(const std::string& path, const std::string& what);
  /// Reads only the lines that start in bytes [begin, end) (end < 0: to the end of the file);
  /// the line at `begin` gets number `number_before` + 1. A line starting at byte 0 loses its BOM.
  LineReader(const std::string& path, const std::string& what, std::int64_t begin, std::int64_t end,
             long number_before);
  /// The next line (BOM and trailing CR removed); false at the end of the file. Fails with
  /// `path:line` on a line longer than `max_line_bytes` or a read error.
  bool next(std::string& line);
  long number() const { return number_; }        ///< 1-based number of the last line returned
  std::int64_t start() const { return start_; }  ///< byte offset where the last line returned starts
  const std::string& path() const { return path_; }

  static constexpr std::size_t max_line_bytes = std::size_t{1} << 26;  ///< 64 MiB
  /// What a line over max_line_bytes, or one holding a NUL byte, is refused with (readers that
  /// split a file themselves say the same).
  static std::string too_long();
  static constexpr const char* nul_byte = "a NUL byte: this is not a text file";

 private:
  std::string path_;
  std::ifstream in_;
  long number_ = 0;
  std::int64_t start_ = 0, position_ = 0, end_ = -1;  ///< bytes: last line's start, next line's, the end
  bool at_file_start_ = true;                         ///< the next line starts at byte 0 (it may carry a BOM)
};

/// Length of the valid UTF-8 sequence starting at text[at], or 0 if it is not one (overlong
/// forms, surrogates and code points above U+10FFFF are not).
std::size_t utf8_length(const std::string& text, std::size_t at);
/// Whether `text` is valid UTF-8 (names must be: results write them as JSON and CSV text).
bool is_utf8(const std::string& text);

/// Removes a leading UTF-8 byte-order mark (EF BB BF) from `text`, if present.
void strip_bom(std::string& text);

}  // namespace kollective

#endif
