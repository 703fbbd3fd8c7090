#ifndef KOLLECTIVE_DRIVERS_REPORTING_HPP
#define KOLLECTIVE_DRIVERS_REPORTING_HPP

/// \file Reporting.hpp
/// What the driver tells on stderr while it runs; the library itself is silent. Rank 0 speaks
/// for the run: other ranks show nothing but their errors.

#include <string>

#include "kollective/core/Progress.hpp"

namespace kollective::driver {

/// --quiet: no progress, no training log and no time estimates (warnings and errors still show).
void set_quiet(bool quiet);
bool quiet();

/// For a solver's options, on rank 0 (other ranks: none): progress on stderr unless quiet, and
/// log lines (notes, TRON's iterations) when `log`, unless quiet.
Reporter reporter(bool log);

/// "kollective: warning: <text>" on stderr, from rank 0 (what every rank finds alike: a config's), the
/// text made printable (Impl::printable).
void warn(const std::string& text);
/// A warning of work this rank does alone (a point of its own): printed by this rank, named
/// "rank R: " where there are several.
void warn_from_this_rank(const std::string& text);

}  // namespace kollective::driver

#endif
