#ifndef KOLLECTIVE_DRIVERS_CONFIGRUN_HPP
#define KOLLECTIVE_DRIVERS_CONFIGRUN_HPP

/// \file ConfigRun.hpp
/// `kollective run CONFIG.yaml` on one rank or many: every run is checked before the first
/// starts; the runs' points are spread over the ranks (longest first onto the least loaded
/// rank), or shared by every rank where a run says `distribute: solve`; rank 0 writes
/// each run's tables, in config order, with a `ranks` column. A run's files appear only when
/// all its points completed on every rank.

#include <string>

namespace kollective::driver {

/// Runs the config; returns the exit status (0, or 1 when a run failed). Errors in the config
/// or its inputs throw (on every rank, with the message of the first rank that found one).
int run_config(const std::string& config_path, std::string out_dir, bool keep_going);

/// Makes every check run_config makes before its first run (the config, its inputs, sizes and
/// memory, the output folder, which is not created), solves nothing, and prints what would run;
/// returns 0, or throws as run_config does.
int check_config(const std::string& config_path, std::string out_dir);

}  // namespace kollective::driver

#endif
