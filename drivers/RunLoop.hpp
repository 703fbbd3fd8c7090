#ifndef KOLLECTIVE_DRIVERS_RUN_LOOP_HPP
#define KOLLECTIVE_DRIVERS_RUN_LOOP_HPP

/// \file RunLoop.hpp
/// What every measured run shares, in one place: the `repetitions`, `warmup`, `verify` and
/// `max_seconds` keys, the time estimate checked before the work starts, and the warm-up and
/// fenced repetitions of a solve. Runners keep only "config -> call -> rows".

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "kollective/core/Config.hpp"
#include "kollective/core/Tables.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/drivers/Estimate.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

/// `verify:` auto (the algorithm's own rule), true (fail when no check applies) or false.
enum class Verify { automatic, always, never };

/// The measurement keys of a run entry.
struct Measurement {
  int repetitions = 1;
  int warmup = 0;  ///< default: 1 when repetitions > 1
  Verify verify = Verify::automatic;
  double max_seconds = 0;  ///< refuse work estimated to take longer (0: no limit)
  bool shared = false;     ///< distribute: solve (every rank shares each solve)
  int solves() const { return repetitions + warmup; }
};

/// Reads repetitions (1..1000), warmup (0..100), verify and max_seconds, where present.
Measurement parse_measurement(const ConfigNode& run);

/// `distribute:` points (default: each sweep point or input on one rank) or solve (every rank
/// shares each point's solve; only algorithms that can say so accept the key). True for solve.
bool parse_distribute(const ConfigNode& run);

/// The ranks a solve of this run passes as its options' communicator: every rank where shared,
/// else this process alone.
inline comm::Communicator shared_by(const Measurement& measurement) {
  return measurement.shared ? world() : comm::Communicator();
}

/// The fenced seconds of each timed repetition.
struct Timing {
  std::vector<double> seconds;
  double median() const { return kollective::median(seconds); }
  double min() const { return *std::min_element(seconds.begin(), seconds.end()); }
};

/// Checks the estimate of all the solves of `what` (`amount` of `work` per solve) against
/// max_seconds before any starts.
void check_work(const Measurement& measurement, Work work, double amount, const std::string& what);

/// Sets `column`_min and `column`_max: the least and the most of each rank's `value` in a solve
/// shared by every rank (a collective: every rank calls it), over the ranks that `took_part`.
/// For exchange seconds, which count the wait for slower ranks, the least is nearly the transfer
/// itself and the spread is the imbalance of the ranks' work.
void set_rank_range(Row& row, const std::string& column, double value, bool took_part = true);

/// time_fenced(space, work), where a solve shared by every rank (`shared`) starts after a
/// barrier: each rank times the solve, not its wait for ranks still preparing their inputs.
template <class Space, class Work>
double time_solve(const Space& space, bool shared, Work&& work) {
  if (shared) {
    space.fence();
    world().barrier();
  }
  return time_fenced(space, std::forward<Work>(work));
}

/// Runs solve() `warmup` times untimed, then `repetitions` times fenced and timed; after each
/// timed call, observe(result) sees its result. Returns the last result.
template <class Space, class Solve, class Observe>
auto measure(const Space& space, const Measurement& measurement, Timing& timing, Solve&& solve, Observe&& observe) {
  for (int w = 0; w < measurement.warmup; ++w) solve();
  decltype(solve()) result{};
  for (int r = 0; r < measurement.repetitions; ++r) {
    timing.seconds.push_back(time_solve(space, measurement.shared, [&] { result = solve(); }));
    observe(result);
  }
  return result;
}
template <class Space, class Solve>
auto measure(const Space& space, const Measurement& measurement, Timing& timing, Solve&& solve) {
  return measure(space, measurement, timing, std::forward<Solve>(solve), [](const auto&) {});
}

}  // namespace kollective::driver

#endif
