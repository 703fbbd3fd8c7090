#include "drivers/RunLoop.hpp"

namespace kollective::driver {

Measurement parse_measurement(const ConfigNode& run) {
  Measurement measurement;
  measurement.max_seconds = max_seconds(run);
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

}  // namespace kollective::driver
