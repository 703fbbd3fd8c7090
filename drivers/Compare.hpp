#ifndef KOLLECTIVE_DRIVERS_COMPARE_HPP
#define KOLLECTIVE_DRIVERS_COMPARE_HPP

/// \file Compare.hpp
/// `kollective compare A B`: two results databases (output folders of one config: OpenMP against
/// CUDA, one GPU against two, one revision against the next) point by point. Points match by run,
/// index and input; per point the ratio B/A of every timing column (the columns' declared kinds)
/// and whether every answer column agrees (doubles within a relative 1e-6, the rest exactly).

#include <optional>
#include <string>

namespace kollective::driver {

struct CompareOptions {
  std::string csv;                   ///< also write the comparison here as CSV ("" : not)
  std::optional<double> fail_above;  ///< exit 1 when a point's solve_s ratio exceeds it beyond noise
};

/// Prints the comparison as Markdown; returns the exit status: 0, or 1 when no point matches, an
/// answer differs (or B lacks it), or a point is slower than fail_above beyond noise (each named
/// on stderr).
int compare_results(const std::string& a, const std::string& b, const CompareOptions& options);

}  // namespace kollective::driver

#endif
