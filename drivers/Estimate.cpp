#include "kollective/drivers/Estimate.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/drivers/Reporting.hpp"

namespace kollective::driver {

namespace {

/// Work per second on this build's default execution space, by the algorithms' own time models
/// (the ones their `auto` choices read): a host backend's rate scales with its thread count.
double rate(Work work) {
  const bool gpu = !std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value;
  const int threads = Kokkos::DefaultExecutionSpace().concurrency();
  const auto of = [&](const Throughput& t) { return t.per_second(gpu, threads); };
  switch (work) {
    case Work::schulze_path_updates:
      return of(schulze::path_updates_throughput);
    case Work::kemeny_dp_steps:
      return of(kemeny::dp_steps_throughput);
    case Work::kemeny_rankings:
      return of(kemeny::enumeration_throughput);
    case Work::csg_splits:
      return of(coalition::idp_splits_throughput);
  }
  return 1.0;
}

}  // namespace

double estimated_seconds(Work work, double amount) { return amount / rate(work); }

double max_seconds(const ConfigNode& run) {
  if (!run.has("max_seconds")) return 0.0;
  const ConfigNode node = run.required("max_seconds");
  const double limit = node.as_double();
  if (!(limit > 0)) node.error("must be a positive number of seconds");
  return limit;
}

void check_estimate(double seconds, double limit, const std::string& what) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", seconds);
  if (limit > 0 && seconds > limit) {
    fail(what, " is estimated to take ", text, " s, more than max_seconds = ", limit,
         " (raise max_seconds, or choose a smaller input or a cheaper method)");
  }
  if (seconds > 1.0 && !quiet()) std::fprintf(stderr, "  estimate: %s takes about %s s\n", what.c_str(), text);
}

}  // namespace kollective::driver
