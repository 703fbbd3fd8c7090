#include "kollective/drivers/Estimate.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

#include "kollective/core/Error.hpp"
#include "kollective/drivers/Reporting.hpp"

namespace kollective::driver {

namespace {

/// A kind of work's amount a second, as the estimates assume it.
struct Throughput {
  double gpu;          ///< on the GPU
  double host_thread;  ///< on one thread of a host backend
};

constexpr Throughput schulze_path_updates_per_second{9e12, 1.6e9};
constexpr Throughput kemeny_dp_steps_per_second{2.9e11, 7e7};
constexpr Throughput kemeny_rankings_per_second{4.5e10, 1.9e8};
constexpr Throughput csg_splits_per_second{1e12, 6e8};

/// Work per second on this build's default execution space: a host backend's rate scales with its
/// thread count.
double rate(Work work) {
  const bool gpu = !std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value;
  const double threads = Kokkos::DefaultExecutionSpace().concurrency();
  const auto of = [&](const Throughput& t) { return gpu ? t.gpu : t.host_thread * threads; };
  switch (work) {
    case Work::schulze_path_updates:
      return of(schulze_path_updates_per_second);
    case Work::kemeny_dp_steps:
      return of(kemeny_dp_steps_per_second);
    case Work::kemeny_rankings:
      return of(kemeny_rankings_per_second);
    case Work::csg_splits:
      return of(csg_splits_per_second);
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
