#include "kollective/drivers/Reporting.hpp"

#include <cstdio>

#include "kollective/core/Error.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {
bool quiet_flag = false;
}  // namespace

void set_quiet(bool quiet) { quiet_flag = quiet; }
bool quiet() { return quiet_flag || world().rank() != 0; }

Reporter reporter(bool log) {
  if (world().rank() != 0) return {};
  static const Reporter on_stderr = stderr_reporter();  // one printer: its terminal line is shared
  Reporter chosen;
  if (!quiet_flag) chosen.progress = on_stderr.progress;
  if (log && !quiet_flag) chosen.log = on_stderr.log;
  return chosen;
}

void warn(const std::string& text) {
  if (world().rank() == 0) std::fprintf(stderr, "kollective: warning: %s\n", Impl::printable(text).c_str());
}

void warn_from_this_rank(const std::string& text) {
  if (world().size() == 1) return warn(text);
  std::fprintf(stderr, "kollective: warning: rank %d: %s\n", world().rank(), Impl::printable(text).c_str());
}

}  // namespace kollective::driver
