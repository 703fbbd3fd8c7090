#ifndef KOLLECTIVE_CORE_TIMER_HPP
#define KOLLECTIVE_CORE_TIMER_HPP

/// \file Timer.hpp
/// Fenced wall-clock timing: device work is asynchronous, so every measurement fences first.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

namespace kollective {

class WallTimer {
 public:
  WallTimer() : start_(std::chrono::steady_clock::now()) {}
  void reset() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Seconds taken by work(), with the execution space fenced before and after.
template <class ExecSpace, class Work>
double time_fenced(const ExecSpace& space, Work&& work) {
  space.fence();
  WallTimer timer;
  work();
  space.fence();
  return timer.seconds();
}

/// A time limit as the seconds a solver may take: every algorithm's time_limit of 0 means no
/// limit, taken as a billion seconds (over 31 years), which stays finite for the clocks and LP
/// solvers that count it down.
inline double seconds_allowed(double time_limit) { return time_limit > 0 ? std::min(time_limit, 1e9) : 1e9; }

/// Median of a non-empty sample (copies; samples are small).
inline double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  if (n == 0) return 0.0;
  return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

}  // namespace kollective

#endif
