#include "kollective/core/Csv.hpp"

#include <charconv>
#include <cmath>

#include "kollective/core/Error.hpp"
#include "kollective/core/Parse.hpp"

namespace kollective {

std::string csv_field(const std::string& text) {
  // Also quoted: a leading '#' (comment lines to some readers) and surrounding blanks (trimmed by
  // some readers), so such names survive a round trip.
  const bool plain = text.find_first_of(",\"\r\n") == std::string::npos && (text.empty() || text[0] != '#') &&
                     trim_blanks(text).size() == text.size();
  if (plain) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_record(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line + "\r\n";
}

std::string exact_text(double value) {
  if (!std::isfinite(value)) fail("cannot write ", value, ": results must be finite numbers");
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  std::string out(text, result.ptr);
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::string doubled_votes_text(long long doubled) {
  const unsigned long long size = doubled < 0 ? 0ull - static_cast<unsigned long long>(doubled) : doubled;
  return (doubled < 0 ? "-" : "") + std::to_string(size / 2) + (size % 2 ? ".5" : "");
}

}  // namespace kollective
