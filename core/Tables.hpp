#ifndef KOLLECTIVE_CORE_TABLES_HPP
#define KOLLECTIVE_CORE_TABLES_HPP

/// \file Tables.hpp
/// Result and perf rows written as Markdown, CSV and JSON. Every row carries the backend,
/// device name, Kokkos version and git revision, so tables can be compared across runs.

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kollective {

using Cell = std::variant<std::string, std::int64_t, double, bool>;

/// One row: named cells in insertion order.
class Row {
 public:
  /// Sets (or replaces) a cell; integers become int64, floating point double, text string.
  template <class T>
  Row& set(const std::string& column, const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      return put(column, Cell(value));
    } else if constexpr (std::is_integral_v<T>) {
      return put(column, Cell(static_cast<std::int64_t>(value)));
    } else if constexpr (std::is_floating_point_v<T>) {
      return put(column, Cell(static_cast<double>(value)));
    } else {
      return put(column, Cell(std::string(value)));
    }
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
  const std::string& name() const { return name_; }
  const std::vector<Row>& rows() const { return rows_; }
  std::vector<std::string> columns() const;

  std::string markdown() const;
  std::string csv() const;
  std::string json() const;
  /// Writes <dir>/<name>.md, .csv and .json (creating dir).
  void write(const std::string& dir) const;

 private:
  std::string name_;
  std::vector<Row> rows_;
};

/// Text of a cell as shown in Markdown/CSV (doubles with up to 6 significant decimals).
std::string to_text(const Cell& cell);

}  // namespace kollective

#endif
