#ifndef KOLLECTIVE_DRIVERS_STOP_HPP
#define KOLLECTIVE_DRIVERS_STOP_HPP

/// \file Stop.hpp
/// A campaign stopped from outside: SIGTERM (a scheduler's time limit; mpirun passes it to every
/// rank) or SIGINT (Ctrl-C). The first asks `kollective run` to stop after the point in flight,
/// write the tables of every finished point and exit with 128 + the signal (0 where every point
/// had finished anyway: the signal came during the last one); a second, 3 s or
/// more later, ends the process at once, with that status (one sooner is the same stop: a
/// scheduler signals every process of a job, and mpirun passes its own on to the ranks). Either way the results
/// database keeps every point committed before it, and `--resume` goes on from there.

namespace kollective::driver {

/// Installs the handlers (for `kollective run` alone); `announce`: say on stderr that a stop began.
void catch_stop_signals(bool announce);
/// The first stop signal caught, or 0.
int stop_signal();
/// "SIGTERM", "SIGINT", or "signal N".
const char* signal_name(int signal);

}  // namespace kollective::driver

#endif
