#ifndef KOLLECTIVE_DRIVERS_RUNNER_HPP
#define KOLLECTIVE_DRIVERS_RUNNER_HPP

/// \file Runner.hpp
/// One runner per algorithm: it reads its part of a config, runs, verifies, and adds rows.

#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/ResultFiles.hpp"
#include "core/Tables.hpp"

namespace kollective::driver {

struct RunContext {
  std::string output_dir;   ///< where tables and result files go
  std::string config_dir;   ///< relative input paths are resolved against it
  std::string run_name;
  ResultFiles* files = nullptr;  ///< the run's result files; null while validating
  /// Resolves a path from the config relative to the config file's folder.
  std::string resolve(const std::string& path) const;
  /// Where to write the result file <run_name><suffix> now: a temporary path, renamed to
  /// <output_dir>/<run_name><suffix> when the whole run has completed.
  std::string output_file(const std::string& suffix) const;
};

struct Runner {
  const char* algorithm;
  /// Checks the whole run entry without doing the work: the config, that every input exists
  /// and parses, and that sizes fit in memory, so errors surface before the first run starts.
  void (*validate)(const ConfigNode& run, const RunContext& context);
  void (*run)(const ConfigNode& run, const RunContext& context, Table& table);
};

/// The runner for an algorithm name, or nullptr.
const Runner* find_runner(const std::string& algorithm);
/// Names of all algorithms, for messages.
std::vector<std::string> algorithm_names();

void validate_coalition(const ConfigNode& run, const RunContext& context);
void run_coalition(const ConfigNode& run, const RunContext& context, Table& table);
void validate_kemeny(const ConfigNode& run, const RunContext& context);
void run_kemeny(const ConfigNode& run, const RunContext& context, Table& table);
void validate_ranksvm(const ConfigNode& run, const RunContext& context);
void run_ranksvm(const ConfigNode& run, const RunContext& context, Table& table);
void validate_schulze(const ConfigNode& run, const RunContext& context);
void run_schulze(const ConfigNode& run, const RunContext& context, Table& table);

}  // namespace kollective::driver

#endif
