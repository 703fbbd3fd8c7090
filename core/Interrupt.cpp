#include "kollective/core/Interrupt.hpp"

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

}  // namespace kollective
