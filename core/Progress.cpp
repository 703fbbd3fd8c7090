#include "kollective/core/Progress.hpp"
#include "kollective/core/Interrupt.hpp"

#include <unistd.h>

#include <cstdio>
#include <memory>

namespace kollective {

namespace {
constexpr double report_interval_s = 0.2;  // a terminal's updating line
constexpr double log_interval_s = 10.0;    // a line in a log file

/// Prints progress reports on stderr: every report on a terminal (one line, rewritten), else one
/// line every log_interval_s and the final line unless the last one printed was at 100%.
class StderrProgress {
 public:
  void operator()(const ProgressReport& report) {
    if (report.label != label_) label_ = report.label, printed_ = -1, last_done_ = -1;
    if (report.final ? printed_ < 0 || (!tty_ && last_done_ == report.total)
                     : !tty_ && report.seconds - (printed_ < 0 ? 0 : printed_) < log_interval_s) {
      return;
    }
    printed_ = report.seconds;
    last_done_ = report.done;
    const double fraction = static_cast<double>(report.done) / static_cast<double>(report.total);
    const double left = fraction > 0 && !report.final ? report.seconds * (1.0 - fraction) / fraction : 0.0;
    char line[256];
    std::snprintf(line, sizeof line, "%s: %5.1f%% (%lld/%lld) %.1fs elapsed, ~%.1fs left", report.label.c_str(),
                  100.0 * fraction, static_cast<long long>(report.done), static_cast<long long>(report.total),
                  report.seconds, left);
    if (tty_) {
      std::fprintf(stderr, "\r%s\033[K%s", line, report.final ? "\n" : "");
    } else {
      std::fprintf(stderr, "%s\n", line);
    }
    std::fflush(stderr);
  }

 private:
  bool tty_ = isatty(STDERR_FILENO) != 0;
  std::string label_;
  double printed_ = -1;  ///< seconds of the phase's last line printed; -1: none yet
  std::int64_t last_done_ = -1;
};
}  // namespace

Reporter stderr_reporter() {
  Reporter reporter;
  auto printer = std::make_shared<StderrProgress>();
  reporter.progress = [printer](const ProgressReport& report) { (*printer)(report); };
  reporter.log = [](const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  };
  return reporter;
}

Progress::Progress(const Reporter& reporter, std::string label, std::int64_t total)
    : callback_(reporter.progress), label_(std::move(label)), total_(total > 0 ? total : 1) {}

Progress::~Progress() {
  if (!finished_ && last_report_ >= 0) report(last_done_, true);  // ends a terminal's line
}

void Progress::update(std::int64_t done) {
  Impl::interruption_point();
  if (!callback_ || finished_) return;
  const double now = timer_.seconds();
  if (now < report_interval_s || now - last_report_ < report_interval_s) return;
  last_report_ = now;
  last_done_ = done;
  report(done, false);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (callback_ && last_report_ >= 0) report(total_, true);  // nothing reported so far: stay silent
}

void Progress::report(std::int64_t done, bool final) {
  finished_ |= final;
  callback_(ProgressReport{label_, done, total_, timer_.seconds(), final});
}

}  // namespace kollective
