#include "kollective/drivers/Stop.hpp"

#include <unistd.h>

#include <csignal>
#include <ctime>
#include <cstring>

namespace kollective::driver {

namespace {

volatile std::sig_atomic_t caught = 0;
bool announce = true;  ///< rank 0 says it is stopping; the other ranks are silent
std::time_t caught_at = 0;
/// A signal this soon after the first is the same stop again, as when a scheduler signals every
/// process of a job and mpirun passes its own on to the ranks.
constexpr std::time_t same_stop_seconds = 3;

std::time_t seconds_now() {  // clock_gettime is async-signal-safe
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec;
}

extern "C" void on_stop_signal(int signal) {
  if (caught != 0) {
    if (seconds_now() - caught_at < same_stop_seconds) return;
    _exit(128 + signal);  // a second stop: at once
  }
  caught_at = seconds_now();  // before `caught`, which a signal interrupting this one reads
  caught = signal;
  const char* note =
      "kollective: stopping after the point in flight (a second signal, 3 s or more later, stops at once)\n";
  if (announce) {
    const ssize_t written = write(STDERR_FILENO, note, std::strlen(note));
    (void)written;
  }
}

}  // namespace

void catch_stop_signals(bool announce_stop) {
  announce = announce_stop;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);  // neither signal interrupts the handler of the other
  sigaddset(&action.sa_mask, SIGTERM);
  sigaddset(&action.sa_mask, SIGINT);
  action.sa_flags = SA_RESTART;  // reads and writes in flight go on
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}

int stop_signal() { return caught; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    default:
      return "a signal";
  }
}

}  // namespace kollective::driver
