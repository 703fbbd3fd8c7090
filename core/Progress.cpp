#include "kollective/core/Progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace kollective {

namespace {
bool quiet_flag = false;
constexpr double tty_interval_s = 0.2;
constexpr double log_interval_s = 10.0;
}  // namespace

void Progress::set_quiet(bool quiet) { quiet_flag = quiet; }
bool Progress::quiet() { return quiet_flag; }

Progress::Progress(std::string label, std::int64_t total)
    : label_(std::move(label)), total_(total > 0 ? total : 1), tty_(isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() {
  if (!finished_ && tty_ && last_print_ >= 0 && !quiet_flag) std::fputc('\n', stderr);
}

void Progress::update(std::int64_t done) {
  if (quiet_flag || finished_) return;
  const double now = timer_.seconds();
  const double interval = tty_ ? tty_interval_s : log_interval_s;
  // Short work never prints: the first line comes after one interval.
  if (now < interval || now - last_print_ < interval) return;
  last_print_ = now;
  last_done_ = done;
  print(done, false);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (quiet_flag || last_print_ < 0) return;  // nothing shown so far: stay silent
  if (!tty_ && last_done_ == total_) return;  // a log has its 100% line already
  print(total_, true);
}

void Progress::print(std::int64_t done, bool final_line) {
  const double elapsed = timer_.seconds();
  const double fraction = static_cast<double>(done) / static_cast<double>(total_);
  const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  char line[256];
  std::snprintf(line, sizeof line, "%s: %5.1f%% (%lld/%lld) %.1fs elapsed, ~%.1fs left", label_.c_str(),
                100.0 * fraction, static_cast<long long>(done), static_cast<long long>(total_), elapsed,
                final_line ? 0.0 : eta);
  if (tty_) {
    std::fprintf(stderr, "\r%s\033[K%s", line, final_line ? "\n" : "");
  } else {
    std::fprintf(stderr, "%s\n", line);
  }
  std::fflush(stderr);
}

}  // namespace kollective
