#include "kollective/core/Interrupt.hpp"

#include <exception>
#include <utility>

namespace kollective {

namespace {
thread_local const std::function<void()>* installed = nullptr;
thread_local std::exception_ptr kept;  // thrown by the check inside a parallel region
}  // namespace

InterruptCheck::InterruptCheck(std::function<void()> check) : check_(std::move(check)), previous_(installed) {
  installed = check_ ? &check_ : nullptr;
}

InterruptCheck::~InterruptCheck() { installed = previous_; }

void Impl::interruption_point() {
  if (installed) (*installed)();
}

bool Impl::interruption_requested() {
  if (!installed || kept) return kept != nullptr;
  try {
    (*installed)();
    return false;
  } catch (...) {
    kept = std::current_exception();
    return true;
  }
}

void Impl::rethrow_interruption() {
  if (!kept) return;
  std::exception_ptr thrown = kept;
  kept = nullptr;
  std::rethrow_exception(thrown);
}

}  // namespace kollective
