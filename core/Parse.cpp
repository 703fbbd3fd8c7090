#include "kollective/core/Parse.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace kollective {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Length of the run of digits at `at`.
std::size_t digits_at(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && is_digit(text[end])) ++end;
  return end - at;
}

}  // namespace

std::string_view trim_blanks(std::string_view text) {
  const auto is_blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::optional<std::uint64_t> parse_uint64(std::string_view text) {
  if (text.empty() || digits_at(text, 0) != text.size()) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_int64(std::string_view text) {
  std::size_t at = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (at == text.size() || digits_at(text, at) != text.size() - at) return std::nullopt;
  if (text[0] == '+') text.remove_prefix(1);  // from_chars takes no '+'
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_decimal(std::string_view text) {
  // Check the decimal grammar first: from_chars alone would take "inf", "nan" and leading zeros
  // of a hex mantissa would pass strtod.
  std::size_t at = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  const std::size_t whole = digits_at(text, at);
  at += whole;
  std::size_t fraction = 0;
  if (at < text.size() && text[at] == '.') {
    fraction = digits_at(text, at + 1);
    at += 1 + fraction;
  }
  if (whole + fraction == 0) return std::nullopt;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    std::size_t sign = at + 1 < text.size() && (text[at + 1] == '+' || text[at + 1] == '-') ? 1 : 0;
    const std::size_t exponent = digits_at(text, at + 1 + sign);
    if (exponent == 0) return std::nullopt;
    at += 1 + sign + exponent;
  }
  if (at != text.size()) return std::nullopt;
  if (text[0] == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  // Edit distance with transpositions of neighbours (optimal string alignment).
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      for (std::size_t j = 1; j <= b.size(); ++j) {
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.size()][b.size()];
  };
  std::string best;
  std::size_t nearest = std::max<std::size_t>(1, word.size() / 3) + 1;  // near enough: below this
  for (const std::string& candidate : candidates) {
    if (candidate == word) continue;
    const std::size_t d = distance(word, candidate);
    if (d < nearest) nearest = d, best = candidate;
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

}  // namespace kollective
