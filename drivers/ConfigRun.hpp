#ifndef KOLLECTIVE_DRIVERS_CONFIGRUN_HPP
#define KOLLECTIVE_DRIVERS_CONFIGRUN_HPP

/// \file ConfigRun.hpp
/// `kollective run CONFIG.yaml` on one rank or many: every run is checked before the first
/// starts; the runs' points are spread over the ranks (longest first onto the least loaded
/// rank), or shared by every rank where a run says `distribute: solve`; rank 0 writes
/// each run's tables, in config order, with a `ranks` column. Every solved point is committed to
/// the output folder's results database at once (ResultsDatabase.hpp); a run's files appear when
/// all its points completed on every rank, or, after a stop signal, with its finished points.

#include <string>

namespace kollective::driver {

/// How `kollective run` goes about a config.
struct RunFlags {
  bool keep_going = false;    ///< after a failed run, run the rest
  bool resume = false;        ///< solve only the points the output folder's results database lacks
  bool force_resume = false;  ///< resume across a change of revision, backend or answer-changing key
};

/// Runs the config; returns the exit status (0; 1 when a run failed; 128 + the signal when
/// SIGTERM or SIGINT stopped it, drivers/Stop.hpp). Errors in the config or its inputs throw (on
/// every rank, with the message of the first rank that found one).
int run_config(const std::string& config_path, std::string out_dir, const RunFlags& flags);

/// Makes every check run_config makes before its first run (the config, its inputs, sizes and
/// memory, the output folder, which is not created), solves nothing, and prints what would run;
/// returns 0, or throws as run_config does.
int check_config(const std::string& config_path, std::string out_dir);

}  // namespace kollective::driver

#endif
