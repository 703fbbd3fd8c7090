#include "core/Tables.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Error.hpp"
#include "core/RuntimeInfo.hpp"

namespace kollective {

Row& Row::put(const std::string& column, Cell value) {
  for (auto& cell : cells_) {
    if (cell.first == column) {
      cell.second = std::move(value);
      return *this;
    }
  }
  cells_.emplace_back(column, std::move(value));
  return *this;
}

const Cell* Row::find(const std::string& column) const {
  for (const auto& cell : cells_) {
    if (cell.first == column) return &cell.second;
  }
  return nullptr;
}

void Table::add(Row row) {
  const RuntimeInfo& info = runtime_info();
  row.set("backend", info.backend);
  row.set("device", info.device);
  row.set("kokkos", info.kokkos_version);
  row.set("revision", info.revision);
  rows_.push_back(std::move(row));
}

std::vector<std::string> Table::columns() const {
  std::vector<std::string> names;
  for (const auto& row : rows_) {
    for (const auto& cell : row.cells()) {
      bool seen = false;
      for (const auto& name : names) seen = seen || name == cell.first;
      if (!seen) names.push_back(cell.first);
    }
  }
  return names;
}

std::string to_text(const Cell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return std::to_string(*integer);
  if (const auto* flag = std::get_if<bool>(&cell)) return *flag ? "true" : "false";
  const double value = std::get<double>(cell);
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

namespace {

std::string csv_escape(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_value(const Cell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return json_string(*text);
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return std::to_string(*integer);
  if (const auto* flag = std::get_if<bool>(&cell)) return *flag ? "true" : "false";
  const double value = std::get<double>(cell);
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

std::string Table::markdown() const {
  const auto names = columns();
  std::ostringstream out;
  out << "|";
  for (const auto& name : names) out << " " << name << " |";
  out << "\n|";
  for (size_t i = 0; i < names.size(); ++i) out << " --- |";
  out << "\n";
  for (const auto& row : rows_) {
    out << "|";
    for (const auto& name : names) {
      const Cell* cell = row.find(name);
      std::string text = cell ? to_text(*cell) : "";
      for (auto& c : text) c = c == '|' ? '/' : c;
      out << " " << text << " |";
    }
    out << "\n";
  }
  return out.str();
}

std::string Table::csv() const {
  const auto names = columns();
  std::ostringstream out;
  for (size_t i = 0; i < names.size(); ++i) out << (i ? "," : "") << csv_escape(names[i]);
  out << "\n";
  for (const auto& row : rows_) {
    for (size_t i = 0; i < names.size(); ++i) {
      const Cell* cell = row.find(names[i]);
      out << (i ? "," : "") << (cell ? csv_escape(to_text(*cell)) : "");
    }
    out << "\n";
  }
  return out.str();
}

std::string Table::json() const {
  std::ostringstream out;
  out << "{\"table\": " << json_string(name_) << ", \"rows\": [";
  for (size_t r = 0; r < rows_.size(); ++r) {
    out << (r ? ",\n  {" : "\n  {");
    const auto& cells = rows_[r].cells();
    for (size_t i = 0; i < cells.size(); ++i) {
      out << (i ? ", " : "") << json_string(cells[i].first) << ": " << json_value(cells[i].second);
    }
    out << "}";
  }
  out << "\n]}\n";
  return out.str();
}

void Table::write(const std::string& dir) const {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) fail("cannot create output folder '", dir, "': ", error.message());
  const std::pair<const char*, std::string> files[] = {
      {".md", markdown()}, {".csv", csv()}, {".json", json()}};
  for (const auto& [extension, content] : files) {
    const std::string path = dir + "/" + name_ + extension;
    std::ofstream out(path);
    out << content;
    if (!out) fail("cannot write '", path, "'");
  }
}

}  // namespace kollective
