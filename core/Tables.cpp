#include "kollective/core/Tables.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <sstream>

#include "kollective/core/Bytes.hpp"
#include "kollective/core/Csv.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/RuntimeInfo.hpp"
#include "kollective/core/TextInput.hpp"

namespace kollective {

Row& Row::put(const std::string& column, Cell value) {
  if (const auto* real = std::get_if<double>(&value); real && !std::isfinite(*real)) {
    fail("the result '", column, "' is ", *real, ", not a finite number");
  }
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

namespace {
/// The runtime columns Table::add sets, which Markdown states once below the table when every
/// row has the same.
constexpr const char* runtime_columns[] = {"backend", "device", "kokkos", "revision"};
}  // namespace

void Table::add(Row row) {
  const RuntimeInfo& info = runtime_info();
  const std::string values[] = {info.backend, info.device, info.kokkos_version, info.revision};
  for (std::size_t i = 0; i < std::size(runtime_columns); ++i) row.set(runtime_columns[i], values[i]);
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

namespace {

template <class List, class Item>
std::string json_array(const List& items, Item&& item) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + item(items[i]);
  return out + "]";
}

std::string json_list(const TextList& list) { return json_array(list, json_string); }

}  // namespace

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    const std::size_t length = utf8_length(text, at);
    if (length == 0) {  // JSON must be UTF-8: an invalid byte becomes U+FFFD
      out += "\\ufffd";
      continue;
    }
    if (length > 1) {
      out.append(text, at, length);
      at += length - 1;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string to_text(const Cell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return to_json(cell);
}

std::string to_json(const Cell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return json_string(*text);
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return std::to_string(*integer);
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return std::to_string(*count);
  if (const auto* flag = std::get_if<bool>(&cell)) return *flag ? "true" : "false";
  if (const auto* list = std::get_if<TextList>(&cell)) return json_list(*list);
  if (const auto* groups = std::get_if<TextGroups>(&cell)) return json_array(*groups, json_list);
  return exact_text(std::get<double>(cell));
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c == '\n' || c == '\r' ? ' ' : c;
  }
  return out;
}

std::string reading_text(const Cell& cell) {
  if (const auto* value = std::get_if<double>(&cell)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", *value);
    return text;
  }
  return to_text(cell);
}

std::string Table::markdown() const {
  std::vector<std::string> names, footer;
  for (const auto& name : columns()) {
    const bool runtime =
        std::find(std::begin(runtime_columns), std::end(runtime_columns), name) != std::end(runtime_columns);
    const Cell* first = rows_.empty() ? nullptr : rows_.front().find(name);
    const bool same = first && std::all_of(rows_.begin(), rows_.end(), [&](const Row& row) {
                        const Cell* cell = row.find(name);
                        return cell && *cell == *first;
                      });
    if (runtime && same) {
      footer.push_back(name + " " + to_text(*first));
    } else {
      names.push_back(name);
    }
  }
  std::ostringstream out;
  out << "|";
  for (const auto& name : names) out << " " << markdown_cell(name) << " |";
  out << "\n|";
  for (size_t i = 0; i < names.size(); ++i) out << " --- |";
  out << "\n";
  for (const auto& row : rows_) {
    out << "|";
    for (const auto& name : names) {
      const Cell* cell = row.find(name);
      out << " " << markdown_cell(cell ? reading_text(*cell) : "") << " |";
    }
    out << "\n";
  }
  if (!footer.empty()) {
    out << "\n";
    for (std::size_t i = 0; i < footer.size(); ++i) out << (i ? ", " : "") << markdown_cell(footer[i]);
    out << "\n";
  }
  return out.str();
}

std::string Table::csv() const {
  const auto names = columns();
  std::string out = csv_record(names);
  for (const auto& row : rows_) {
    std::vector<std::string> fields;
    for (const auto& name : names) {
      const Cell* cell = row.find(name);
      fields.push_back(cell ? to_text(*cell) : "");
    }
    out += csv_record(fields);
  }
  return out;
}

std::string Table::json() const {
  std::ostringstream out;
  out << "{\"table\": " << json_string(name_) << ", \"rows\": [";
  for (size_t r = 0; r < rows_.size(); ++r) {
    out << (r ? ",\n  {" : "\n  {");
    const auto& cells = rows_[r].cells();
    for (size_t i = 0; i < cells.size(); ++i) {
      out << (i ? ", " : "") << json_string(cells[i].first) << ": " << to_json(cells[i].second);
    }
    out << "}";
  }
  out << "\n]}\n";
  return out.str();
}

void Table::write(ResultFiles& files) const {
  files.write(name_ + ".md", markdown());
  files.write(name_ + ".csv", csv());
  files.write(name_ + ".json", json());
}

namespace {

void put_list(ByteWriter& out, const TextList& list) {
  out.count(list.size());
  for (const auto& text : list) out.text(text);
}

TextList get_list(ByteReader& in) {
  TextList list(in.count());
  for (auto& text : list) text = in.text();
  return list;
}

}  // namespace

std::string encode_rows(const std::vector<Row>& rows) {
  ByteWriter out;
  out.count(rows.size());
  for (const Row& row : rows) {
    out.count(row.cells().size());
    for (const auto& [column, cell] : row.cells()) {
      out.text(column);
      out.raw(static_cast<std::uint8_t>(cell.index()));
      std::visit(
          [&](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, std::string>) {
              out.text(value);
            } else if constexpr (std::is_same_v<T, TextList>) {
              put_list(out, value);
            } else if constexpr (std::is_same_v<T, TextGroups>) {
              out.count(value.size());
              for (const auto& list : value) put_list(out, list);
            } else {
              out.raw(value);
            }
          },
          cell);
    }
  }
  return out.bytes();
}

std::vector<Row> decode_rows(const std::string& bytes) {
  ByteReader in(bytes);
  std::vector<Row> rows(in.count());
  for (Row& row : rows) {
    const std::size_t cells = in.count();
    for (std::size_t c = 0; c < cells; ++c) {
      const std::string column = in.text();
      switch (in.raw<std::uint8_t>()) {
        case 0:
          row.put(column, in.text());
          break;
        case 1:
          row.put(column, in.raw<std::int64_t>());
          break;
        case 2:
          row.put(column, in.raw<std::uint64_t>());
          break;
        case 3:
          row.put(column, in.raw<double>());
          break;
        case 4:
          row.put(column, in.raw<bool>());
          break;
        case 5:
          row.put(column, get_list(in));
          break;
        case 6: {
          TextGroups groups(in.count());
          for (auto& list : groups) list = get_list(in);
          row.put(column, std::move(groups));
          break;
        }
        default:
          fail("internal: a cell of unknown type in rows from another rank");
      }
    }
  }
  if (!in.done()) fail("internal: trailing bytes after rows from another rank");
  return rows;
}

}  // namespace kollective
