#ifndef KOLLECTIVE_CORE_TABLES_HPP
#define KOLLECTIVE_CORE_TABLES_HPP

/// \file Tables.hpp
/// Result and perf rows written as Markdown, CSV and JSON. Every row carries the backend,
/// device name, Kokkos version and git revision, so tables can be compared across runs.
/// Cells are typed: JSON has numbers as numbers and lists as arrays; in CSV and Markdown a list
/// is written as its JSON array (["A, Inc.","B"]), which no name can be confused with. Doubles
/// are written so that they read back exactly; a non-finite double is refused when set.

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "kollective/core/ResultFiles.hpp"

namespace kollective {

using TextList = std::vector<std::string>;  ///< e.g. winners, a ranking
using TextGroups = std::vector<TextList>;   ///< e.g. a ranking with ties, a coalition structure
using Cell = std::variant<std::string, std::int64_t, std::uint64_t, double, bool, TextList, TextGroups>;

/// A value as a cell: signed integers become int64, unsigned uint64, floating point double, text
/// string, lists stay lists.
template <class T>
Cell make_cell(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return Cell(value);
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return Cell(static_cast<std::int64_t>(value));
  } else if constexpr (std::is_integral_v<T>) {
    return Cell(static_cast<std::uint64_t>(value));
  } else if constexpr (std::is_floating_point_v<T>) {
    return Cell(static_cast<double>(value));
  } else if constexpr (std::is_same_v<T, TextList> || std::is_same_v<T, TextGroups> || std::is_same_v<T, Cell>) {
    return Cell(value);
  } else {
    return Cell(std::string(value));
  }
}

/// One row: named cells in insertion order.
class Row {
 public:
  /// Sets (or replaces) a cell (make_cell; a double must be finite).
  template <class T>
  Row& set(const std::string& column, const T& value) {
    return put(column, make_cell(value));
  }
  Row& put(const std::string& column, Cell value);
  const std::vector<std::pair<std::string, Cell>>& cells() const { return cells_; }
  const Cell* find(const std::string& column) const;

 private:
  std::vector<std::pair<std::string, Cell>> cells_;
};

/// Rows sharing a name; columns are the union of the rows' columns in first-seen order.
class Table {
 public:
  explicit Table(std::string name) : name_(std::move(name)) {}
  /// Appends a row, adding the runtime columns (backend, device, kokkos, revision).
  void add(Row row);
  /// Appends a row that already has its runtime columns (one gathered from another rank).
  void add_complete(Row row) { rows_.push_back(std::move(row)); }
  const std::string& name() const { return name_; }
  const std::vector<Row>& rows() const { return rows_; }
  std::vector<std::string> columns() const;

  std::string markdown() const;
  std::string csv() const;
  std::string json() const;
  /// Writes <name>.md, .csv and .json among a run's result files.
  void write(ResultFiles& files) const;

 private:
  std::string name_;
  std::vector<Row> rows_;
};

/// Rows as bytes and back, every cell with its type, so that rows made on one rank can be
/// gathered on another exactly. decode_rows fails on bytes that encode_rows did not write.
std::string encode_rows(const std::vector<Row>& rows);
std::vector<Row> decode_rows(const std::string& bytes);

/// Text as one Markdown table cell: '|' escaped, line breaks as spaces.
std::string markdown_cell(const std::string& text);
/// A cell as Markdown and the console show it: numbers rounded for reading (6 significant digits;
/// CSV and JSON keep every digit).
std::string reading_text(const Cell& cell);
/// Text of a cell as written in CSV and Markdown.
std::string to_text(const Cell& cell);
/// A cell as a JSON value.
std::string to_json(const Cell& cell);
/// A JSON string literal.
std::string json_string(const std::string& text);

}  // namespace kollective

#endif
