#ifndef KOLLECTIVE_CORE_ERROR_HPP
#define KOLLECTIVE_CORE_ERROR_HPP

/// \file Error.hpp
/// Errors about user input and resources. They are thrown, never abort the process: the driver
/// prints the message and exits non-zero without presenting partial output as a result.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace kollective {

/// An error with a human-readable message that already says what and where, already printable
/// (Impl::printable, applied once where the message is made: fail, with_context).
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
/// A message safe to print: control characters (C0 but line breaks and tabs, DEL, C1) and bytes
/// that are not UTF-8, as \xNN (an input's bytes quoted in a message must not move a terminal's
/// cursor), and a backslash doubled (so \xNN is always an escape). Messages therefore write no
/// backslash of their own. Defined beside utf8_length (TextInput.cpp).
std::string printable(const std::string& text);

/// An exception's message to print: a kollective::Error's as it is (printable since it was made),
/// any other's made printable here.
std::string message_of(const std::exception& e);

/// What a failure reports: a kollective::Error's message; any other exception is a bug, reported
/// as "internal error: " and its message made printable.
std::string error_message(const std::exception& e);
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
    throw SharedError(Impl::printable(context) + ": " + e.what());
  } catch (const Error& e) {
    throw Error(Impl::printable(context) + ": " + e.what());
  }
}

}  // namespace kollective

#endif
