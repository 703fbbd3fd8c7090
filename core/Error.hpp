#ifndef KOLLECTIVE_CORE_ERROR_HPP
#define KOLLECTIVE_CORE_ERROR_HPP

/// \file Error.hpp
/// Errors about user input and resources. They are thrown, never abort the process: the driver
/// prints the message and exits non-zero without presenting partial output as a result.

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace kollective {

/// An error with a human-readable message that already says what and where.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An error raised on every rank of a run together, with the same message (Communicator::on_every_rank
/// makes them): the driver prints it once, and no rank is left waiting for another.
class SharedError : public Error {
 public:
  using Error::Error;
};

/// What is wrong with one option of a solver, as its `check(options)` finds it: the driver names
/// the config key and line, the library's `validate` and Python the option.
struct OptionProblem {
  std::string option;   ///< "eps"
  std::string problem;  ///< "must be in (0, 1), got 2"
};

namespace Impl {
/// The length of the UTF-8 character at text[at], or 0 where the bytes there are not one.
inline std::size_t utf8_character(const std::string& text, std::size_t at) {
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

/// A message safe to print: control characters (C0 but line breaks and tabs, DEL, C1) and bytes
/// that are not UTF-8, as \xNN (an input's bytes quoted in a message must not move a terminal's
/// cursor).
inline std::string printable(const std::string& text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    const std::size_t length = utf8_character(text, at);
    // C1 controls (U+0080-U+009F, 0xC2 0x80-0x9F) act on terminals too (U+009B opens a sequence).
    const bool c1 = c == 0xC2 && length == 2 && static_cast<unsigned char>(text[at + 1]) < 0xA0;
    if (length == 0 || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || c1) {
      for (std::size_t i = 0; i < (c1 ? 2 : 1); ++i) {
        const unsigned char b = static_cast<unsigned char>(text[at + i]);
        out += std::string("\\x") + hex[b >> 4] + hex[b & 15];
      }
      at += c1 ? 2 : 1;
    } else {
      out.append(text, at, length);
      at += length;
    }
  }
  return out;
}
}  // namespace Impl

/// Builds a message from streamable parts: fail("n = ", n, " is too large"); an input's bytes
/// in it are made printable (Impl::printable).
template <class... Parts>
[[noreturn]] void fail(Parts&&... parts) {
  std::ostringstream message;
  (message << ... << std::forward<Parts>(parts));
  throw Error(Impl::printable(message.str()));
}

/// An error located in an input file: "file:line: message" (line 0 = whole file).
template <class... Parts>
[[noreturn]] void fail_at(const std::string& file, long line, Parts&&... parts) {
  std::ostringstream where;
  where << file;
  if (line > 0) where << ":" << line;
  where << ": ";
  fail(where.str(), std::forward<Parts>(parts)...);
}

/// Runs f and prefixes the message of any Error it throws with context ("while reading X: ").
template <class F>
auto with_context(const std::string& context, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const SharedError& e) {
    throw SharedError(context + ": " + e.what());
  } catch (const Error& e) {
    throw Error(context + ": " + e.what());
  }
}

}  // namespace kollective

#endif
