#ifndef KOLLECTIVE_CORE_PROGRESS_HPP
#define KOLLECTIVE_CORE_PROGRESS_HPP

/// \file Progress.hpp
/// Progress of long runs on stderr: one updating line on a terminal, a line every few seconds
/// otherwise (logs on clusters), nothing when quiet.

#include <cstdint>
#include <string>

#include "kollective/core/Timer.hpp"

namespace kollective {

class Progress {
 public:
  /// Global switch (the driver's --quiet).
  static void set_quiet(bool quiet);
  static bool quiet();

  Progress(std::string label, std::int64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Reports that `done` of `total` steps are complete; cheap when nothing is printed.
  void update(std::int64_t done);
  /// Prints the final line (once).
  void finish();

 private:
  void print(std::int64_t done, bool final_line);

  std::string label_;
  std::int64_t total_;
  WallTimer timer_;
  double last_print_ = -1.0;
  std::int64_t last_done_ = -1;  ///< `done` of the last line printed
  bool tty_;
  bool finished_ = false;
};

}  // namespace kollective

#endif
