#ifndef KOLLECTIVE_DRIVERS_ESTIMATE_HPP
#define KOLLECTIVE_DRIVERS_ESTIMATE_HPP

/// \file Estimate.hpp
/// Time estimates printed before long work, and the `max_seconds` limit that refuses a run
/// whose estimate exceeds it. Estimates are rough (a factor of a few): they read each algorithm's
/// time model (its Throughput per kind of work on a GPU and per host thread), which its `auto`
/// reads too.

#include <string>

#include "kollective/core/Config.hpp"

namespace kollective::driver {

enum class Work {
  schulze_path_updates,  ///< n^3 (max, min) updates of the strongest-path kernels
  kemeny_dp_steps,       ///< n 2^n steps of the Kemeny subset DP
  kemeny_rankings,       ///< n! rankings of the Kemeny enumeration
  csg_splits,            ///< splits evaluated by the coalition DP / IDP
};

/// Seconds `amount` of `work` takes on this build's default execution space (roughly).
double estimated_seconds(Work work, double amount);

/// The run's `max_seconds` (0 when absent: no limit).
double max_seconds(const ConfigNode& run);

/// Before starting `what` (e.g. "the subset DP over 30 alternatives"): prints the estimate to
/// stderr when it exceeds a second, and fails when it exceeds `limit` (> 0).
void check_estimate(double seconds, double limit, const std::string& what);

}  // namespace kollective::driver

#endif
