#ifndef KOLLECTIVE_CORE_INTERRUPT_HPP
#define KOLLECTIVE_CORE_INTERRUPT_HPP

/// \file Interrupt.hpp
/// Abandoning a long solve from the calling thread (Ctrl-C in Python, a caller's own deadline or
/// cancel button): while an InterruptCheck lives, the solves that its thread calls call its
/// function at their interruption points, and an exception the function throws ends the solve
/// and reaches the caller. The points lie between kernels, never inside one: each step of a long
/// phase that reports progress, each branch-and-bound node, LP round and local-search round of
/// Kemeny, each search frame of coalition IP, each conjugate-gradient step of RankSVM's training.
/// A solve ended this way returns nothing; the caller's inputs are as they were, but for one
/// that a solve updates in place (schulze::strongest_paths' matrix, left partly updated).

#include <atomic>
#include <exception>
#include <functional>

namespace kollective {

/// Installs `check` for this thread's solves until destroyed (the one before it comes back).
class InterruptCheck {
 public:
  explicit InterruptCheck(std::function<void()> check);
  ~InterruptCheck();
  InterruptCheck(const InterruptCheck&) = delete;
  InterruptCheck& operator=(const InterruptCheck&) = delete;

 private:
  std::function<void()> check_;
  const std::function<void()>* previous_;
};

namespace Impl {
/// Calls this thread's InterruptCheck, if any (from host code between kernels only).
void interruption_point();

/// An interruption point inside a host parallel region, where an exception must not leave a
/// thread: poll() calls the check on the thread that has one (the caller's; the region's other
/// threads have none), keeps what it throws, and from then on says stopped on every thread; after
/// the region, rethrow() throws what was kept.
class RegionInterruption {
 public:
  /// Whether the region should stop (this call, or an earlier one on any thread, saw the check throw).
  bool poll();
  /// Whether this thread has a check to poll.
  static bool checked_here();
  void rethrow();

 private:
  std::atomic<bool> stopped_{false};
  std::exception_ptr kept_;  // written by the one thread that has a check
};
}  // namespace Impl

}  // namespace kollective

#endif
