#include "kollective/core/ResultFields.hpp"

namespace kollective {

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
    std::string text = reading_text(*cell);
    if (text.size() > 160) text = text.substr(0, 157) + "...";
    if (!line.empty()) line += "; ";
    line += rule.name + " " + text + (rule.unit.empty() || rule.unit == "count" ? "" : " " + rule.unit);
  }
  return line;
}

}  // namespace kollective
