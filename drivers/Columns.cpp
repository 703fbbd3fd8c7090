#include "kollective/drivers/Columns.hpp"

#include <algorithm>
#include <sstream>

#include "kollective/core/Tables.hpp"

#include "kollective/drivers/Runner.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

std::pair<double, double> rank_range(double value, bool took_part) {
  // A rank that waited sends nothing; rank 0 always takes part.
  const std::vector<double> values =
      world().allgather_values(took_part ? std::vector<double>{value} : std::vector<double>{});
  return {*std::min_element(values.begin(), values.end()), *std::max_element(values.begin(), values.end())};
}

Point timed_point(std::string run, std::string input, const Timing& times, const Measurement& measurement,
                  std::string verified, std::optional<double> exchange_s, bool took_part) {
  Point point{std::move(run), std::move(input), &times, measurement.repetitions, exchange_s};
  point.verified = std::move(verified);
  if (exchange_s && measurement.shared) point.exchange_range = rank_range(*exchange_s, took_part);
  return point;
}

const ResultFields<Point>& point_head() {
  static const ResultFields<Point> fields = {
      field<Point>("run", FieldKind::context, "", "the run's name", [](const Point& p) { return p.run; }),
      field<Point>("input", FieldKind::context, "", "what was solved: a file, or a generator and its parameters",
                   [](const Point& p) { return p.input; }),
  };
  return fields;
}

const ResultFields<Point>& point_timing() {
  auto timed = [](const Point& p) { return p.times != nullptr; };
  static const ResultFields<Point> fields = {
      field_where<Point>("repetitions", FieldKind::context, "count", "timed solves", timed,
                         [](const Point& p) { return p.repetitions; }),
      field_where<Point>("solve_s", FieldKind::timing, "s", "the solve, median of the repetitions", timed,
                         [](const Point& p) { return p.times->median(); })
          .formerly("seconds")
          .shown(),
      field_where<Point>("solve_min_s", FieldKind::timing, "s", "the fastest repetition", timed,
                         [](const Point& p) { return p.times->min(); })
          .formerly("seconds_min"),
      field_where<Point>(
          "exchange_s", FieldKind::timing, "s", "of the solve, in trades between ranks (rank 0's, the last repetition)",
          [](const Point& p) { return p.exchange_s.has_value(); }, [](const Point& p) { return *p.exchange_s; })
          .formerly("exchange_seconds"),
      field_where<Point>(
          "exchange_min_s", FieldKind::timing, "s", "the least exchange_s over the ranks of a shared solve",
          [](const Point& p) { return p.exchange_range.has_value(); },
          [](const Point& p) { return p.exchange_range->first; })
          .formerly("exchange_seconds_min"),
      field_where<Point>(
          "exchange_max_s", FieldKind::timing, "s", "the most exchange_s over the ranks of a shared solve",
          [](const Point& p) { return p.exchange_range.has_value(); },
          [](const Point& p) { return p.exchange_range->second; })
          .formerly("exchange_seconds_max"),
  };
  return fields;
}

const ResultFields<Point>& point_check() {
  static const ResultFields<Point> fields = {
      field<Point>("verified", FieldKind::outcome, "", "the independent check that passed (skipped: none ran)",
                   [](const Point& p) { return p.verified; })
          .shown(),
  };
  return fields;
}

const std::vector<FieldRule>& table_context() {
  static const std::vector<FieldRule> rules = {
      {"ranks", FieldKind::context, "count", "ranks that solved the point"},
      {"backend", FieldKind::context, "", "Kokkos' execution space"},
      {"device", FieldKind::context, "", "the GPU or CPU"},
      {"kokkos", FieldKind::context, "", "Kokkos' version"},
      {"revision", FieldKind::context, "", "Kollective's git revision"},
  };
  return rules;
}

namespace {

bool declared(const std::string& column, const std::vector<FieldRule>& rules) {
  for (const FieldRule& rule : rules) {
    if (rule.name == column) return true;
    // A family: "train_ndcg@k" names train_ndcg@1, train_ndcg@10, ...
    const auto at = rule.name.find("@k");
    if (at != std::string::npos && column.compare(0, at + 1, rule.name, 0, at + 1) == 0 && column.size() > at + 1 &&
        column.find_first_not_of("0123456789", at + 1) == std::string::npos)
      return true;
  }
  return false;
}

}  // namespace

void require_declared(const Table& table, const std::vector<FieldRule>& rules) {
  for (const std::string& column : table.columns()) {
    if (!declared(column, rules) && !declared(column, table_context()))
      fail("internal error: the table column '", column, "' is declared nowhere (drivers/Columns.hpp)");
  }
}

bool identifies_point(const std::string& column, FieldKind kind) {
  if (kind != FieldKind::context) return false;
  for (const char* name : {"run", "repetitions", "ranks", "backend", "device", "kokkos", "revision"}) {
    if (column == name) return false;
  }
  return true;
}

std::string results_reference() {
  std::ostringstream out;
  out << "# Result columns\n\n"
      << "Every column of the tables a run writes (`<run>.csv`, `.json`, `.md`), written by `kollective help\n"
      << "results` from the declarations the tables are made from. Kinds: an *answer* must agree between\n"
      << "runs of the same point on any backend or revision; a *timing* differs run to run (a unit of\n"
      << "1/s or B/s is a rate: larger is faster); a *counter* counts work and may differ between\n"
      << "backends; *context* says what was solved, as configured (a point's parameters in the results\n"
      << "database); an *outcome* says how the solve went about it (what `auto` chose, why it stopped,\n"
      << "the check that ran) and may differ between backends. A former name is the column's name\n"
      << "before a rename (CHANGELOG.md). A column that does not apply to a point is left out of its row.\n";
  auto table = [&](const std::string& title, const std::vector<FieldRule>& rules) {
    out << "\n## " << title << "\n\n| column | kind | unit | meaning |\n| --- | --- | --- | --- |\n";
    for (const FieldRule& rule : rules) {
      std::string meaning = rule.meaning;
      for (const std::string& former : rule.former_names) meaning += " (formerly `" + former + "`)";
      out << "| `" << rule.name << "` | " << to_string(rule.kind) << " | " << rule.unit << " | "
          << markdown_cell(meaning) << " |\n";
    }
  };
  for (const std::string& algorithm : algorithm_names()) table(algorithm, find_runner(algorithm)->columns());
  table("Every table, after the algorithm's columns", table_context());
  return out.str();
}

}  // namespace kollective::driver
