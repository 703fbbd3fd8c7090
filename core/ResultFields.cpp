#include "kollective/core/ResultFields.hpp"

#include <cstdio>

namespace kollective {

const char* to_string(FieldKind kind) {
  switch (kind) {
    case FieldKind::answer:
      return "answer";
    case FieldKind::timing:
      return "timing";
    case FieldKind::counter:
      return "counter";
    case FieldKind::context:
      return "context";
  }
  return "?";
}

namespace {

/// A cell for people: doubles with 6 significant digits, lists as the tables write them.
std::string shown_text(const Cell& cell) {
  if (const auto* real = std::get_if<double>(&cell)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", *real);
    return text;
  }
  return to_text(cell);
}

}  // namespace

TextList named(const std::vector<int>& indices, const std::vector<std::string>& names) {
  TextList list;
  for (int index : indices) list.push_back(names.at(static_cast<std::size_t>(index)));
  return list;
}

std::string summary_line(const Row& row, const std::vector<FieldRule>& rules) {
  std::string line;
  for (const FieldRule& rule : rules) {
    const Cell* cell = rule.summary ? row.find(rule.name) : nullptr;
    if (!cell) continue;
    std::string text = shown_text(*cell);
    if (text.size() > 160) text = text.substr(0, 157) + "...";
    if (!line.empty()) line += "; ";
    line += rule.name + " " + text + (rule.unit.empty() || rule.unit == "count" ? "" : " " + rule.unit);
  }
  return line;
}

}  // namespace kollective
