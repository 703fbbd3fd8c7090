#include "kollective/drivers/Estimate.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

#include "kollective/core/Error.hpp"
#include "kollective/drivers/Reporting.hpp"

namespace kollective::driver {

namespace {

/// Work per second: on the GPU, measured on an H200 (perf/results/2026-11-22_h200_*.md); on
/// host backends, measured on 2 threads of an AMD EPYC and scaled by the thread count.
double rate(Work work) {
  const bool gpu = !std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value;
  const double threads = Kokkos::DefaultExecutionSpace().concurrency();
  switch (work) {
    case Work::schulze_path_updates:
      return gpu ? 9e12 : 1.6e9 * threads;
    case Work::kemeny_dp_steps:
      return gpu ? 2.9e11 : 7e7 * threads;
    case Work::kemeny_rankings:
      return gpu ? 4.5e10 : 1.9e8 * threads;
    case Work::csg_splits:
      return gpu ? 1e12 : 6e8 * threads;
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
