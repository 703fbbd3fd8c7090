#include "drivers/RunLoop.hpp"

#include <cstring>
#include <limits>

#include "core/comm/Communicator.hpp"

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

void set_rank_range(Row& row, const std::string& column, double value, bool took_part) {
  const std::string own = took_part ? std::string(reinterpret_cast<const char*>(&value), sizeof value) : "";
  double least = std::numeric_limits<double>::infinity(), most = -least;  // rank 0 always takes part
  for (const std::string& part : comm::allgather(own)) {
    if (part.size() != sizeof(double)) continue;  // a rank that waited
    double other = 0;
    std::memcpy(&other, part.data(), sizeof other);
    least = std::min(least, other);
    most = std::max(most, other);
  }
  row.set(column + "_min", least).set(column + "_max", most);
}

}  // namespace kollective::driver
