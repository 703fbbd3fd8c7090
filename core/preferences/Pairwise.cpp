#include "kollective/core/preferences/Pairwise.hpp"

#include "kollective/core/Csv.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "kollective/core/Memory.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/TextInput.hpp"

namespace kollective::preferences {

PairwiseCounts pairwise_reference(const Profile& profile) {
  const int n = profile.alternatives;
  PairwiseCounts counts;
  counts.alternatives = n;
  counts.names = profile.names;
  counts.doubled.assign(static_cast<size_t>(n) * n, 0);
  counts.strict_complete = profile.data_type() == DataType::soc;
  std::vector<std::uint64_t> sums(static_cast<size_t>(n) * n, 0);
  for (const auto& ballot : profile.ballots) {
    const auto pos = positions(ballot, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        if (pos[i] < pos[j]) sums[static_cast<size_t>(i) * n + j] += 2 * ballot.count;
        if (pos[i] == pos[j] && pos[i] != unranked) sums[static_cast<size_t>(i) * n + j] += ballot.count;
      }
    }
  }
  for (size_t c = 0; c < sums.size(); ++c) {
    if (sums[c] > 0xffffffffu) fail("pairwise count exceeds 32-bit doubled range");
    counts.doubled[c] = static_cast<std::uint32_t>(sums[c]);
  }
  return counts;
}

namespace {

/// One CSV record (RFC 4180) and the line it starts on.
struct Record {
  long line = 0;
  std::vector<std::string> cells;
};

/// Reads CSV records: blank lines and lines starting with '#' between records are skipped; a
/// quoted cell may hold commas, doubled quotes and line breaks; unquoted cells are trimmed.
class CsvReader {
 public:
  explicit CsvReader(const std::string& path) : lines_(path, "pairwise matrix") {}
  const std::string& path() const { return lines_.path(); }

  bool next(Record& record) {
    std::string line;
    do {
      if (!lines_.next(line)) return false;
    } while (trim_blanks(line).empty() || line[0] == '#');
    record.line = lines_.number();
    record.cells.clear();
    split(line, record);
    return true;
  }

 private:
  [[noreturn]] void error(const Record& record, const std::string& message) const {
    fail_at(path(), record.line, message);
  }

  /// Splits `line` into record.cells, reading more lines while a quoted cell is open.
  void split(std::string line, Record& record) {
    std::string cell;
    bool quoted = false, closed = false;  // inside quotes; after a closing quote
    std::size_t bytes = line.size();
    auto end_cell = [&] {
      record.cells.push_back(closed ? cell : std::string(trim_blanks(cell)));
      cell.clear();
      closed = false;
    };
    auto cell_error = [&](const char* what) {
      error(record, what + (" (cell " + std::to_string(record.cells.size() + 1) + ")"));
    };
    std::size_t i = 0;
    while (true) {
      if (i == line.size()) {
        if (!quoted) break;
        if (!lines_.next(line)) error(record, "quoted cell not closed before the end of the file");
        bytes += line.size() + 1;
        if (bytes > LineReader::max_line_bytes) error(record, "record longer than 64 MiB");
        cell += '\n';
        i = 0;
        continue;
      }
      const char c = line[i++];
      if (quoted) {
        if (c != '"') {
          cell += c;
        } else if (i < line.size() && line[i] == '"') {
          cell += '"';
          ++i;
        } else {
          quoted = false;
          closed = true;
        }
      } else if (c == ',') {
        end_cell();
      } else if (closed) {
        if (c != ' ' && c != '\t') cell_error("text after the closing quote");
      } else if (c == '"') {
        if (!trim_blanks(cell).empty()) cell_error("quote inside an unquoted cell");
        cell.clear();
        quoted = true;
      } else {
        cell += c;
      }
    }
    end_cell();
  }

  LineReader lines_;
};

/// A count cell as a doubled count: a non-negative decimal that is whole or ends in .5, at most
/// 2147483647.5 (doubled counts are 32-bit); nullopt otherwise.
std::optional<std::uint32_t> doubled_count(const std::string& text) {
  const auto value = parse_decimal(text);
  if (!value || !(*value >= 0)) return std::nullopt;
  const double twice = 2.0 * *value;
  if (twice != std::floor(twice) || twice > 4294967295.0) return std::nullopt;
  return static_cast<std::uint32_t>(twice);
}

/// Header names must be non-empty and distinct: results and written matrices name alternatives.
void check_names(const std::vector<std::string>& names, const std::string& path, long line) {
  std::unordered_map<std::string, std::size_t> first_with;
  for (std::size_t a = 0; a < names.size(); ++a) {
    if (names[a].empty()) fail_at(path, line, "alternative ", a + 1, " has an empty name");
    if (!is_utf8(names[a])) fail_at(path, line, "the name of alternative ", a + 1, " is not UTF-8 text");
    const auto [first, fresh] = first_with.emplace(names[a], a);
    if (!fresh)
      fail_at(path, line, "alternatives ", first->second + 1, " and ", a + 1, " are both named '", names[a], "'");
  }
}

/// A signed weight: a decimal integer of magnitude below 2^31.
std::optional<std::int64_t> signed_weight(const std::string& text) {
  const auto value = parse_int64(text);
  if (!value || *value <= -(std::int64_t{1} << 31) || *value >= (std::int64_t{1} << 31)) return std::nullopt;
  return value;
}

/// Appends row `i` of an n x n matrix of signed weights to `weights` (the diagonal read as 0).
void read_weight_row(const Record& record, std::size_t i, std::size_t n, bool named, const std::string& path,
                     std::vector<std::int64_t>& weights) {
  for (std::size_t j = 0; j < n; ++j) {
    const std::string& text = record.cells[j + (named ? 1 : 0)];
    const auto weight = i == j ? std::optional<std::int64_t>(0) : signed_weight(text);
    if (!weight)
      fail_at(path, record.line, "cell ", j + 1, " '", text, "' is not an integer weight (of magnitude below 2^31)");
    weights.push_back(*weight);
  }
}

/// Appends row `i` of an n x n matrix to counts.doubled, or with signed weights to `weights`;
/// `named`: the row starts with its name.
void read_row(const Record& record, std::size_t i, bool named, const std::string& path, PairwiseCounts& counts,
              std::vector<std::int64_t>* weights) {
  const std::size_t n = counts.names.size(), expected = named ? n + 1 : n;
  const auto& cells = record.cells;
  if (cells.size() != expected) fail_at(path, record.line, "row has ", cells.size(), " cells, expected ", expected);
  if (named && cells[0] != counts.names[i]) {
    fail_at(path, record.line, "row name '", cells[0], "' does not match column name '", counts.names[i], "'");
  }
  if (weights) return read_weight_row(record, i, n, named, path, *weights);
  for (std::size_t j = 0; j < n; ++j) {
    const std::string& text = cells[j + (named ? 1 : 0)];
    const auto doubled = text.empty() && i == j ? std::optional<std::uint32_t>(0) : doubled_count(text);
    if (i == j && doubled != std::optional<std::uint32_t>(0)) {
      fail_at(path, record.line, "diagonal cell must be 0 or empty, got '", text, "'");
    }
    if (!doubled) {
      fail_at(path, record.line, "cell ", j + 1, " '", text,
              "' is not a count (a non-negative multiple of 0.5 below 2^31)");
    }
    counts.doubled.push_back(*doubled);
  }
}

}  // namespace

PairwiseCounts read_pairwise_csv(const std::string& path, Cells cells) {
  CsvReader csv(path);
  Record record;
  if (!csv.next(record)) fail_at(path, 0, "no matrix rows");
  PairwiseCounts counts;
  const long header_line = record.line;
  const bool header = record.cells[0].empty() || !parse_decimal(record.cells[0]);
  const bool corner_empty = record.cells[0].empty();
  if (header) {  // ",A,B,C" (corner cell empty) or "A,B,C"
    counts.names.assign(record.cells.begin() + (record.cells[0].empty() ? 1 : 0), record.cells.end());
    if (counts.names.empty()) fail_at(path, header_line, "the header names no alternatives");
    check_names(counts.names, path, header_line);
    if (!csv.next(record)) fail_at(path, header_line, "header but no matrix rows");
  } else {
    counts.names = numbered_names(static_cast<int>(record.cells.size()));
  }
  // n comes from the header or the first row and bounds nothing by itself: the matrix grows one
  // checked row at a time, so its size follows the rows the file really holds.
  const std::size_t n = counts.names.size();
  const bool named = header && record.cells.size() == n + 1;
  std::vector<std::int64_t> weights;
  std::vector<std::int64_t>* signed_cells = cells == Cells::signed_weights ? &weights : nullptr;
  // ",1,2,3" names alternatives 1, 2, 3 but is also the first row of a matrix of 4 without names
  // whose diagonal cell is empty: it is read as names, and an error says how to mean the other.
  const bool numbers_as_names =
      corner_empty && std::all_of(counts.names.begin(), counts.names.end(),
                                  [](const std::string& name) { return parse_decimal(name).has_value(); });
  std::size_t rows = 0;
  try {
    do {
      if (rows == n) {
        fail_at(path, record.line, "more rows than the ", n, " alternatives ",
                header ? "the header names" : "of the first row");
      }
      read_row(record, rows++, named, path, counts, signed_cells);
    } while (csv.next(record));
  } catch (const Error& e) {
    if (!numbers_as_names) throw;
    throw Error(std::string(e.what()) + " (line " + std::to_string(header_line) +
                ", whose first cell is empty, was read as a header of names: a matrix without names needs 0 "
                "in its first cell)");
  }
  if (rows < n) {
    fail_at(path, header ? header_line : 0, header ? "the header names " : "the first row has ", n,
            header ? " alternatives" : " cells", " but there are ", rows, " rows");
  }
  if (signed_cells) return from_weights(weights, static_cast<int>(n), std::move(counts.names), path);
  counts.alternatives = static_cast<int>(n);
  return counts;
}

PairwiseCounts from_weights(const std::vector<std::int64_t>& weights, int n, std::vector<std::string> names,
                            const std::string& path) {
  if (n > max_weighted_alternatives)
    fail(path, ": ", n, " alternatives of signed weights, more than ", max_weighted_alternatives);
  PairwiseCounts counts;
  counts.alternatives = n;
  counts.names = std::move(names);
  counts.doubled.assign(static_cast<std::size_t>(n) * n, 0);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const std::int64_t forward = weights[static_cast<std::size_t>(i) * n + j];
      const std::int64_t backward = weights[static_cast<std::size_t>(j) * n + i];
      const std::int64_t margin = forward > backward ? forward - backward : backward - forward;
      if (margin > 0x7fffffff) {
        fail(path, ": the weights of ", counts.names[i], " over ", counts.names[j], " (", forward, ") and back (",
             backward, ") differ by ", margin, ", more than 2^31 - 1");
      }
      counts.doubled[static_cast<std::size_t>(forward > backward ? i : j) * n + (forward > backward ? j : i)] =
          static_cast<std::uint32_t>(2 * margin);
      counts.shift += 2 * std::min(forward, backward);
    }
  }
  return counts;
}

PairwiseCounts read_lolib(const std::string& path) {
  LineReader lines(path, "LOLIB matrix");
  std::string line;
  long n = -1;
  std::vector<std::int64_t> weights;
  std::string name;  // the first line, where it names the instance
  while (lines.next(line)) {
    // Some of LOLIB's own files repeat their name line after the matrix.
    const bool full = n >= 0 && static_cast<long>(weights.size()) == n * n;
    if (full && !name.empty() && trim_blanks(line) == name) continue;
    std::istringstream tokens(line);
    std::string token;
    while (tokens >> token) {
      if (lines.number() == 1 && n < 0 && !signed_weight(token)) {
        name = std::string(trim_blanks(line));
        break;
      }
      const auto value = signed_weight(token);
      if (!value) fail_at(path, lines.number(), "'", token, "' is not an integer of magnitude below 2^31");
      if (n < 0) {
        if (*value < 1 || *value > max_weighted_alternatives)
          fail_at(path, lines.number(), "the size ", *value, " is not in [1, ", max_weighted_alternatives, "]");
        n = static_cast<long>(*value);
        continue;
      }
      if (static_cast<long>(weights.size()) == n * n) {
        fail_at(path, lines.number(), "more than the ", n, " x ", n, " values of the matrix");
      }
      weights.push_back(*value);
    }
  }
  if (n < 0) fail_at(path, lines.number(), "no matrix size (LOLIB's format: n, then n rows of n integers)");
  if (static_cast<long>(weights.size()) < n * n) {
    fail_at(path, lines.number(), "the matrix ends after ", weights.size(), " of its ", n, " x ", n, " values");
  }
  for (long i = 0; i < n; ++i) weights[static_cast<std::size_t>(i * n + i)] = 0;
  return from_weights(weights, static_cast<int>(n), numbered_names(static_cast<int>(n)), path);
}

void write_pairwise_csv(const PairwiseCounts& counts, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) fail("cannot write '", path, "'");
  std::vector<std::string> fields{""};
  fields.insert(fields.end(), counts.names.begin(), counts.names.end());
  out << csv_record(fields);
  for (int i = 0; i < counts.alternatives; ++i) {
    fields.assign(1, counts.names[i]);
    for (int j = 0; j < counts.alternatives; ++j) fields.push_back(doubled_votes_text(counts.at(i, j)));
    out << csv_record(fields);
  }
  if (!out.flush()) fail("error while writing '", path, "'");
}

void check_counts(const PairwiseCounts& counts, const char* caller, bool names_needed) {
  const std::int64_t n = counts.alternatives;
  if (n < 1) fail(caller, ": ", n, " alternatives (an election needs one)");
  if (static_cast<std::int64_t>(counts.doubled.size()) != checked_mul(n, n, "pairwise matrix"))
    fail(caller, ": ", counts.doubled.size(), " doubled counts for ", n, " alternatives (n * n = ", n * n, ")");
  if (names_needed && static_cast<std::int64_t>(counts.names.size()) != n)
    fail(caller, ": ", counts.names.size(), " names for ", n, " alternatives (one each)");
}

}  // namespace kollective::preferences
