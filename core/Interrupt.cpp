#include "kollective/core/Interrupt.hpp"

#include <exception>
#include <utility>

namespace kollective {

namespace {
thread_local const std::function<void()>* installed = nullptr;
}  // namespace

InterruptCheck::InterruptCheck(std::function<void()> check) : check_(std::move(check)), previous_(installed) {
  installed = check_ ? &check_ : nullptr;
}

InterruptCheck::~InterruptCheck() { installed = previous_; }

void Impl::interruption_point() {
  if (installed) (*installed)();
}

bool Impl::RegionInterruption::poll() {
  if (stopped_.load(std::memory_order_relaxed) || !installed) return stopped_.load(std::memory_order_relaxed);
  try {
    (*installed)();
    return false;
  } catch (...) {
    kept_ = std::current_exception();
    stopped_ = true;
    return true;
  }
}

bool Impl::RegionInterruption::checked_here() { return installed != nullptr; }

void Impl::RegionInterruption::rethrow() {
  if (kept_) std::rethrow_exception(kept_);
}

}  // namespace kollective
