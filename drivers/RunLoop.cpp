#include "kollective/drivers/RunLoop.hpp"

#include <algorithm>
#include <vector>

#include "kollective/core/comm/Communicator.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

Measurement parse_measurement(const ConfigNode& run) {
  Measurement measurement;
  measurement.max_seconds = max_seconds(run);
  measurement.shared = parse_distribute(run);
  measurement.repetitions = static_cast<int>(run.get_int_in("repetitions", 1, 1, 1000));
  measurement.warmup = static_cast<int>(run.get_int_in("warmup", measurement.repetitions > 1 ? 1 : 0, 0, 100));
  if (run.has("verify")) {
    const std::string verify = run.required("verify").as_choice({"auto", "true", "false"});
    measurement.verify = verify == "true" ? Verify::always : verify == "false" ? Verify::never : Verify::automatic;
  }
  return measurement;
}

bool parse_distribute(const ConfigNode& run) {
  return run.has("distribute") && run.required("distribute").as_choice({"points", "solve"}) == "solve";
}

void check_work(const Measurement& measurement, Work work, double amount, const std::string& what) {
  check_estimate(estimated_seconds(work, amount * measurement.solves()), measurement.max_seconds, what);
}

void set_rank_range(Row& row, const std::string& column, double value, bool took_part) {
  // A rank that waited sends nothing; rank 0 always takes part.
  const std::vector<double> values =
      world().allgather_values(took_part ? std::vector<double>{value} : std::vector<double>{});
  const std::string stem = column.substr(0, column.size() - 2);  // seconds end in _s: exchange_s -> exchange_min_s
  row.set(stem + "_min_s", *std::min_element(values.begin(), values.end()))
      .set(stem + "_max_s", *std::max_element(values.begin(), values.end()));
}

}  // namespace kollective::driver
