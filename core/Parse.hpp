#ifndef KOLLECTIVE_CORE_PARSE_HPP
#define KOLLECTIVE_CORE_PARSE_HPP

/// \file Parse.hpp
/// Strict number parsing for every reader and the config: decimal notation only. Hexadecimal
/// (0x10, 0x1p3), `inf`, `nan`, trailing characters and values outside the type's range are
/// refused (nullopt), so the caller can say `file:line: what` about them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kollective {

/// [+-]digits, in range of int64.
std::optional<std::int64_t> parse_int64(std::string_view text);
/// digits only (no sign), in range of uint64.
std::optional<std::uint64_t> parse_uint64(std::string_view text);
/// [+-]digits[.digits][e[+-]digits] (also ".5" and "5."), finite after rounding to double.
std::optional<double> parse_decimal(std::string_view text);

/// " (did you mean 'c'?)" for the candidate c nearest to `word` by edit distance, when near
/// enough to be a slip (at most a third of the word's letters, at least one); else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

/// `text` without leading and trailing blanks (space, tab, CR, LF).
std::string_view trim_blanks(std::string_view text);

}  // namespace kollective

#endif
