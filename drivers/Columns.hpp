#ifndef KOLLECTIVE_DRIVERS_COLUMNS_HPP
#define KOLLECTIVE_DRIVERS_COLUMNS_HPP

/// \file Columns.hpp
/// The columns of the driver's tables, declared once (core/ResultFields.hpp): those every
/// measured point has (its run and input, repetitions and seconds, the check that ran), and the
/// means to make one algorithm's table from them, its own columns and its library's result
/// fields. Each runner builds its rows with set_fields over one list, `Job::columns()` gives
/// that list, and the driver refuses a table column that no declaration names (a bug).

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kollective/core/ResultFields.hpp"
#include "kollective/drivers/RunLoop.hpp"

namespace kollective::driver {

/// What every measured point reports beside its algorithm's result.
struct Point {
  std::string run;
  std::string input;
  const Timing* times = nullptr;  ///< the timed solves (none: nothing was solved, e.g. a given model)
  int repetitions = 1;
  std::optional<double> exchange_s;  ///< rank 0's seconds in trades between ranks, where the solve has them
  /// The least and the most exchange seconds over the ranks of a shared solve (rank_range)
  std::optional<std::pair<double, double>> exchange_range;
  std::string verified = "skipped";
};

/// The point of a timed solve, checked by `verified`. A solve with trades between ranks passes
/// its (last repetition's) `exchange_s`: rank 0's is reported, and where the solve was shared,
/// its range over the ranks that `took_part` (a collective: every rank calls it).
Point timed_point(std::string run, std::string input, const Timing& times, const Measurement& measurement,
                  std::string verified, std::optional<double> exchange_s = std::nullopt, bool took_part = true);

/// The least and the most of each rank's `value` over the ranks that `took_part` (a collective:
/// every rank calls it). For exchange seconds, which count the wait for slower ranks, the least
/// is nearly the transfer itself and the spread is the imbalance of the ranks' work.
std::pair<double, double> rank_range(double value, bool took_part = true);

const ResultFields<Point>& point_head();    ///< run, input
const ResultFields<Point>& point_timing();  ///< repetitions, solve_s, solve_min_s, exchange_s and its range
const ResultFields<Point>& point_check();   ///< verified
/// The columns added to every row after its runner: ranks (the driver), backend, device,
/// kokkos and revision (Table::add).
const std::vector<FieldRule>& table_context();

/// Whether a column of kind `kind` identifies a point (its parameters in the results database,
/// what `kollective compare` matches): a context column, but not the run, how often the point was
/// timed, or where it ran (ranks, backend, device, kokkos, revision).
bool identifies_point(const std::string& column, FieldKind kind);

/// `fields` of `From` read from a `To` through `part` (To -> From, by reference or value).
template <class To, class From, class Part>
ResultFields<To> adapt(const ResultFields<From>& fields, Part part) {
  ResultFields<To> out;
  for (const auto& each : fields) {
    ResultField<To> field;
    static_cast<FieldRule&>(field) = each;
    field.get = [get = each.get, part](const To& source) { return get(part(source)); };
    out.push_back(std::move(field));
  }
  return out;
}

/// The lists one after the other.
template <class Source>
ResultFields<Source> joined(std::initializer_list<ResultFields<Source>> lists) {
  ResultFields<Source> out;
  for (const auto& list : lists) out.insert(out.end(), list.begin(), list.end());
  return out;
}

/// The common columns of a table over `Source`, whose member `point` is its Point: head, the
/// algorithm's own `middle`, timing, `after`, then the check.
template <class Source>
ResultFields<Source> table_fields(const ResultFields<Source>& middle, const ResultFields<Source>& after = {}) {
  auto point = [](const Source& source) -> const Point& { return source.point; };
  return joined<Source>({adapt<Source>(point_head(), point), middle, adapt<Source>(point_timing(), point), after,
                         adapt<Source>(point_check(), point)});
}

/// Fails (a bug, "internal error") when `table` has a column that neither `declared` nor
/// table_context() names.
void require_declared(const Table& table, const std::vector<FieldRule>& declared);

/// Every column of every algorithm's table as Markdown: `kollective help results` prints it and
/// docs/results-reference.md holds it (a test keeps the two equal).
std::string results_reference();

}  // namespace kollective::driver

#endif
