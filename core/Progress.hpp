#ifndef KOLLECTIVE_CORE_PROGRESS_HPP
#define KOLLECTIVE_CORE_PROGRESS_HPP

/// \file Progress.hpp
/// What a solver tells while it runs goes to the caller's functions (a Reporter in its options):
/// the progress of its long phases and log lines (TRON's iterations, notes). An empty Reporter,
/// the default, keeps the library silent; the driver installs stderr_reporter().

#include <cstdint>
#include <functional>
#include <string>

#include "kollective/core/Timer.hpp"

namespace kollective {

/// A phase's progress: `done` of `total` steps after `seconds`; `final` on its last report.
struct ProgressReport {
  std::string label;
  std::int64_t done = 0, total = 1;
  double seconds = 0;
  bool final = false;
};

/// The caller's functions for a solver's progress and log lines, called on the calling thread,
/// never from a kernel. Either may be empty.
struct Reporter {
  std::function<void(const ProgressReport&)> progress;
  std::function<void(const std::string& line)> log;
};

/// Progress as the driver shows it on stderr (one updating line on a terminal, a line every 10 s
/// otherwise, as logs on clusters want), log lines on stderr.
Reporter stderr_reporter();

/// A solver's long phase: reports to `reporter.progress` at most every 0.2 s from 0.2 s on (short
/// phases report nothing), and a final report once if it reported before.
class Progress {
 public:
  Progress(const Reporter& reporter, std::string label, std::int64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// `done` of `total` steps are complete; cheap when nothing is reported.
  void update(std::int64_t done);
  /// The final report (once).
  void finish();

 private:
  void report(std::int64_t done, bool final);

  std::function<void(const ProgressReport&)> callback_;
  std::string label_;
  std::int64_t total_;
  WallTimer timer_;
  double last_report_ = -1.0;
  std::int64_t last_done_ = 0;
  bool finished_ = false;
};

}  // namespace kollective

#endif
