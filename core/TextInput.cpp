#include "kollective/core/TextInput.hpp"

#include <filesystem>
#include <system_error>

#include "kollective/core/Error.hpp"

namespace kollective {

void check_input_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  if (path.empty()) fail(what, ": the path is empty");
  // The system would read the path only up to the NUL: another file than the one named.
  if (path.find('\0') != std::string::npos) fail(what, " path '", path.c_str(), "...' contains a NUL byte");
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) fail(what, " '", path, "' does not exist");
  if (error) fail("cannot read ", what, " '", path, "': ", error.message());
  if (status.type() == fs::file_type::directory) fail(what, " '", path, "' is a folder, not a file");
  // Devices such as /dev/zero never end, and a pipe with no writer blocks forever; inputs are
  // also read twice (checked before the first run starts, then read by their run).
  if (status.type() != fs::file_type::regular) {
    const char* kind = status.type() == fs::file_type::fifo     ? "a pipe"
                       : status.type() == fs::file_type::socket ? "a socket"
                                                                : "a device";
    fail(what, " '", path, "' is not a regular file (", kind, "); save the data to a file");
  }
}

std::ifstream open_input(const std::string& path, const std::string& what) {
  check_input_file(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open ", what, " '", path, "' (permission denied?)");
  return in;
}

std::size_t utf8_length(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(at);
  const std::size_t length = lead < 0x80           ? 1
                             : (lead >> 5) == 0x6  ? 2
                             : (lead >> 4) == 0xe  ? 3
                             : (lead >> 3) == 0x1e ? 4
                                                   : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(at + k) & 0xc0) != 0x80) return 0;
  }
  if (length == 2 && lead < 0xc2) return 0;  // overlong
  return length;
}

bool is_utf8(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

void strip_bom(std::string& text) {
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
}

LineReader::LineReader(const std::string& path, const std::string& what) : path_(path), in_(open_input(path, what)) {}

LineReader::LineReader(const std::string& path, const std::string& what, std::int64_t begin, std::int64_t end,
                       long number_before)
    : path_(path),
      in_(open_input(path, what)),
      number_(number_before),
      start_(begin),
      position_(begin),
      end_(end),
      at_file_start_(begin == 0) {
  in_.seekg(begin);
  if (!in_) fail("cannot read ", what, " '", path, "' from byte ", begin);
}

std::string LineReader::too_long() { return "line longer than " + std::to_string(max_line_bytes) + " bytes"; }

bool LineReader::next(std::string& line) {
  line.clear();
  if (end_ >= 0 && position_ >= end_) return false;
  start_ = position_;  // counted, not asked of the stream (tellg costs a system call)
  // Read in pieces so that a file without line breaks cannot make one huge allocation.
  char buffer[65536];
  bool any = false;
  while (true) {
    in_.get(buffer, sizeof buffer, '\n');  // stops before the '\n'
    const std::streamsize got = in_.gcount();
    line.append(buffer, static_cast<std::size_t>(got));
    position_ += got;
    any = any || got > 0;
    if (line.size() > max_line_bytes) fail_at(path_, number_ + 1, too_long());
    if (in_.bad()) fail_at(path_, number_ + 1, "read error");
    if (in_.eof()) break;
    in_.clear();  // get() sets failbit when it reads nothing (an empty line)
    const int following = in_.peek();
    if (following == '\n') {
      in_.get();
      ++position_;
      any = true;
      break;
    }
    if (following == std::char_traits<char>::eof()) break;
  }
  if (!any) return false;
  ++number_;
  if (line.find('\0') != std::string::npos) fail_at(path_, number_, nul_byte);
  if (at_file_start_) strip_bom(line);
  at_file_start_ = false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

}  // namespace kollective
