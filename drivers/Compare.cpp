#include "kollective/drivers/Compare.hpp"

#include <cmath>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <deque>
#include <map>
#include <vector>

#include "kollective/core/Csv.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Tables.hpp"
#include "kollective/drivers/Columns.hpp"
#include "kollective/drivers/ResultsDatabase.hpp"
#include "kollective/drivers/Runner.hpp"

namespace kollective::driver {

namespace {

/// Relative difference below which two double answers agree (sums in another order, another
/// device's rounding).
constexpr double answer_tolerance = 1e-6;

/// The database of an output folder, or the file given.
std::string database_path(const std::string& given) {
  if (!std::filesystem::exists(given)) fail("compare: '", given, "' does not exist");
  const std::string path = std::filesystem::is_directory(given) ? ResultsDatabase::path_in(given) : given;
  if (!std::filesystem::exists(path)) {
    fail("compare: '", given, "' holds no results database (", path, "): give an output folder of `kollective run`");
  }
  return path;
}

/// Every declared column's kind, over the four algorithms' tables.
std::map<std::string, FieldKind> column_kinds() {
  std::map<std::string, FieldKind> kinds;
  for (const std::string& algorithm : algorithm_names()) {
    for (const FieldRule& rule : find_runner(algorithm)->columns()) kinds.emplace(rule.name, rule.kind);
  }
  for (const FieldRule& rule : table_context()) kinds.emplace(rule.name, rule.kind);
  return kinds;
}

std::optional<double> number(const Cell* cell) {
  if (!cell) return std::nullopt;
  if (const auto* d = std::get_if<double>(cell)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(cell)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<std::uint64_t>(cell)) return static_cast<double>(*u);
  return std::nullopt;
}

bool same_answer(const Cell& a, const Cell& b) {
  const auto x = number(&a), y = number(&b);
  if (std::holds_alternative<double>(a) && x && y) {
    return std::fabs(*x - *y) <= answer_tolerance * std::max({1.0, std::fabs(*x), std::fabs(*y)});
  }
  return to_text(a) == to_text(b);
}

/// One timing column of one matched row.
struct Ratio {
  std::string column;
  double a = 0, b = 0;
  std::optional<bool> within_noise;  ///< solve_s alone, where both sides timed repetitions
  bool judged = false;               ///< solve_s: its noise is judged (the spreads are of solve_s)
};

/// A matched point: its answers' agreement and its timings' ratios.
struct Matched {
  std::string run, label;
  std::vector<std::string> differing;  ///< answer columns that differ
  std::vector<Ratio> ratios;
};

/// The spread of a row's repetitions, median over least (solve_s / solve_min_s), where timed
/// more than once.
std::optional<double> spread(const Row& row) {
  const auto median = number(row.find("solve_s")), least = number(row.find("solve_min_s"));
  const auto repetitions = number(row.find("repetitions"));
  if (!median || !least || !repetitions || *repetitions < 2 || *least <= 0) return std::nullopt;
  return *median / *least;
}

Matched match_rows(const StoredPoint& a, const StoredPoint& b, const std::map<std::string, FieldKind>& kinds) {
  Matched matched{a.run, a.parameters, {}, {}};
  for (std::size_t r = 0; r < std::min(a.rows.size(), b.rows.size()); ++r) {
    const Row &x = a.rows[r], &y = b.rows[r];
    const auto noise_a = spread(x), noise_b = spread(y);
    for (const auto& [column, cell] : x.cells()) {
      const auto kind = kinds.find(column);
      const Cell* other = y.find(column);
      if (kind == kinds.end()) continue;
      if (kind->second == FieldKind::answer && (!other || !same_answer(cell, *other))) {
        matched.differing.push_back(column);  // an answer B lacks does not agree
      }
      if (!other) continue;
      const auto t = number(&cell), u = number(other);
      if (kind->second != FieldKind::timing || !t || !u || column.find("_min_s") != std::string::npos) continue;
      Ratio ratio{column, *t, *u, std::nullopt, column == "solve_s"};
      if (ratio.judged && noise_a && noise_b && *t > 0) {
        ratio.within_noise = std::fabs(*u / *t - 1) <= std::max(*noise_a, *noise_b) - 1;
      }
      matched.ratios.push_back(ratio);
    }
  }
  if (a.rows.size() != b.rows.size()) matched.differing.push_back("rows");
  return matched;
}

/// B / A ("" where A is not positive): exactly in the CSV (it is data), to six significant
/// digits in the table and messages (reading_text), never rounded to a fixed number of decimals,
/// which would print a point that took a thousandth of its time in B as 0.
std::string ratio_text(double a, double b, bool exact) {
  if (a <= 0) return "";
  return exact ? exact_text(b / a) : reading_text(Cell(b / a));
}

/// Whether a ratio lies within the repetitions' spread; "" for the columns other than solve_s,
/// whose spread is not recorded.
std::string noise_text(const Ratio& ratio) {
  if (!ratio.judged) return "";
  const auto& within = ratio.within_noise;
  return within ? (*within ? "within noise" : "beyond noise") : "one repetition";
}

/// The CSV, written at once after the table: a compare that fails leaves no file, and the ranks of
/// an mpirun that each write it write the same bytes.
void write_csv(const std::string& path, const std::vector<Matched>& points) {
  std::string text = csv_record({"run", "parameters", "answers", "column", "a", "b", "ratio", "noise"});
  for (const Matched& point : points) {
    const std::string answers = point.differing.empty() ? "agree" : "differ";
    for (const Ratio& ratio : point.ratios) {
      text += csv_record({point.run, point.label, answers, ratio.column, exact_text(ratio.a), exact_text(ratio.b),
                          ratio_text(ratio.a, ratio.b, true), noise_text(ratio)});
    }
  }
  std::ofstream out(path, std::ios::binary);
  if (!(out << text) || !out.flush()) fail("compare: cannot write '", path, "': ", std::strerror(errno));
}

/// Fails before the table where `path` cannot take the CSV; creates nothing and changes no file.
void check_writable(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail("compare: --csv '", path, "' is a folder");
  const bool existed = std::filesystem::exists(path, error);
  if (!std::ofstream(path, std::ios::binary | std::ios::app))  // app: no truncation
    fail("compare: cannot write '", path, "': ", std::strerror(errno));
  if (!existed) std::filesystem::remove(path, error);
}

/// What identifies a point within its run, as its first row's context columns give it under
/// today's declarations (the input, sizes and options as configured), so points match across
/// backends, rank counts, revisions and a sweep reordered, and databases written before a
/// column became an outcome still match.
std::string identity_of(const StoredPoint& point, const std::map<std::string, FieldKind>& kinds) {
  std::string identity;
  if (point.rows.empty()) return identity;
  for (const auto& [name, cell] : point.rows.front().cells()) {
    const auto kind = kinds.find(name);
    if (kind == kinds.end() || !identifies_point(name, kind->second)) continue;
    identity += (identity.empty() ? "" : ", ") + name + "=" + to_text(cell);
  }
  return identity;
}

}  // namespace

int compare_results(const std::string& a_given, const std::string& b_given, const CompareOptions& options) {
  const ResultsDatabase a(database_path(a_given), ResultsDatabase::Access::read);
  const ResultsDatabase b(database_path(b_given), ResultsDatabase::Access::read);
  if (!options.csv.empty()) check_writable(options.csv);
  const auto kinds = column_kinds();
  std::map<std::pair<std::string, std::string>, std::deque<StoredPoint>> theirs;  // by run and identity
  std::size_t only_b = 0;
  for (StoredPoint& point : b.all_points()) {
    theirs[{point.run, identity_of(point, kinds)}].push_back(std::move(point));
    ++only_b;
  }
  std::vector<Matched> matched;
  std::vector<std::string> only_a;
  for (const StoredPoint& point : a.all_points()) {
    const std::string identity = identity_of(point, kinds);
    const auto found = theirs.find({point.run, identity});
    if (found == theirs.end() || found->second.empty()) {
      only_a.push_back(point.run + " " + identity);
      continue;
    }
    matched.push_back(match_rows(point, found->second.front(), kinds));
    matched.back().label = identity;
    found->second.pop_front();
    --only_b;
  }
  std::cout << "| run | point | answers | solve_s A | solve_s B | B/A | noise |\n|---|---|---|---|---|---|---|\n";
  int status = 0;
  for (const Matched& point : matched) {
    const std::string answers = point.differing.empty() ? "agree" : "DIFFER:";
    std::string differing;
    for (const auto& column : point.differing) differing += " " + column;
    for (const Ratio& ratio : point.ratios) {
      if (ratio.column != "solve_s") continue;
      std::cout << "| " << markdown_cell(point.run) << " | " << markdown_cell(point.label) << " | " << answers
                << differing << " | " << reading_text(Cell(ratio.a)) << " | " << reading_text(Cell(ratio.b)) << " | "
                << ratio_text(ratio.a, ratio.b, false) << " | " << noise_text(ratio) << " |\n";
      const bool slower = options.fail_above && ratio.a > 0 && ratio.b / ratio.a > *options.fail_above &&
                          ratio.within_noise != std::optional<bool>(true);
      if (slower) {
        std::cerr << "kollective compare: " << point.run << " " << point.label << " is "
                  << ratio_text(ratio.a, ratio.b, true) << "x slower (above " << exact_text(*options.fail_above)
                  << ")\n";
        status = 1;
      }
    }
    if (!point.differing.empty()) {
      std::cerr << "kollective compare: " << point.run << " " << point.label << ": answers differ:" << differing
                << "\n";
      status = 1;
    }
  }
  std::cout << "\n" << matched.size() << " points matched";
  std::cout << "; only in A: " << only_a.size() << "; only in B: " << only_b << "\n";
  if (!options.csv.empty()) write_csv(options.csv, matched);
  if (matched.empty()) {
    std::cerr << "kollective compare: no point of A matches one of B (run, input, sizes and options)\n";
    return 1;
  }
  if (!only_a.empty()) {  // a gate must not pass a campaign that lacks points
    std::cerr << "kollective compare: " << only_a.size() << " points of A are not in B, e.g. " << only_a.front()
              << (options.fail_above ? "" : " (with --fail-above they fail the comparison)") << "\n";
    if (options.fail_above) status = 1;
  }
  return status;
}

}  // namespace kollective::driver
