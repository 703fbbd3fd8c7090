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
  const auto byte = [&](std::size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u; };
  const unsigned lead = byte(at);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0) return 0;
  // The second byte's range excludes overlong forms, surrogates and code points above U+10FFFF.
  const unsigned second = byte(at + 1);
  const unsigned low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
  const unsigned high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
  if (second < low || second > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

std::string Impl::printable(const std::string& text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    const std::size_t length = utf8_length(text, at);
    // C1 controls (U+0080-U+009F, 0xC2 0x80-0x9F) act on terminals too (U+009B opens a sequence).
    const bool c1 = c == 0xC2 && length == 2 && static_cast<unsigned char>(text[at + 1]) < 0xA0;
    const std::size_t escaped = length == 0 || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F ? 1 : c1 ? 2 : 0;
    if (c == '\\') {  // doubled, so that an input's own text "\x1b" never reads as an escaped byte
      out += "\\\\";
      ++at;
      continue;
    }
    for (std::size_t i = 0; i < escaped; ++i) {
      const unsigned char b = static_cast<unsigned char>(text[at + i]);
      out += std::string("\\x") + hex[b >> 4] + hex[b & 15];
    }
    if (escaped == 0) out.append(text, at, length);
    at += escaped ? escaped : length;
  }
  return out;
}

std::string Impl::message_of(const std::exception& e) {
  return dynamic_cast<const Error*>(&e) ? e.what() : printable(e.what());
}

std::string Impl::error_message(const std::exception& e) {
  return dynamic_cast<const Error*>(&e) ? e.what() : "internal error: " + printable(e.what());
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
