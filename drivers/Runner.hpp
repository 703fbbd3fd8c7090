#ifndef KOLLECTIVE_DRIVERS_RUNNER_HPP
#define KOLLECTIVE_DRIVERS_RUNNER_HPP

/// \file Runner.hpp
/// One runner per algorithm: it parses its run entries into jobs that check, run and add rows.

#include <memory>
#include <string>
#include <vector>

#include "kollective/core/Config.hpp"
#include "kollective/core/ResultFields.hpp"
#include "kollective/core/ResultFiles.hpp"
#include "kollective/core/Tables.hpp"

namespace kollective::driver {

struct RunContext {
  std::string output_dir;  ///< where tables and result files go
  std::string config_dir;  ///< relative input paths are resolved against it
  std::string run_name;
  ResultFiles* files = nullptr;  ///< the run's result files; null while validating
  /// The input path the config gives at `node`, resolved relative to the config file's folder;
  /// fails naming the key where it is empty.
  std::string input_path(const ConfigNode& node) const;
  /// Where to write the result file <run_name><suffix> now: a temporary path, renamed to
  /// <output_dir>/<run_name><suffix> when the whole run has completed.
  std::string output_file(const std::string& suffix) const;
};

/// One run entry of a config, parsed once: checked before any run starts, then run point by
/// point. A point is one independent solve (an input, a sweep point) with its rows and files; a
/// run over several ranks spreads the points over them, or has every rank work on each point
/// shared by every rank when the job says so.
class Job {
 public:
  virtual ~Job() = default;
  /// Checks what parsing could not without doing the work: that every input exists and parses,
  /// and that sizes fit in memory, so errors surface before the first run starts.
  virtual void validate(const RunContext& context) const = 0;
  /// Rough seconds of each point (their number is the run's point count), used to balance the
  /// points over ranks; only their ratios matter.
  virtual std::vector<double> point_seconds() const { return {1.0}; }
  /// True when every rank shares each point's solve (`distribute: solve`), false when each
  /// point goes to one rank.
  virtual bool shares_solves() const { return false; }
  /// Does point `point`'s work and adds its rows; result files go through context.files.
  virtual void run_point(std::size_t point, const RunContext& context, Table& table) const = 0;
};

struct Runner {
  const char* algorithm;
  /// Reads the whole run entry (every key checked, files not yet read).
  std::unique_ptr<Job> (*parse)(const ConfigNode& run, const RunContext& context);
  /// The columns of its table, as declared (drivers/Columns.hpp).
  std::vector<FieldRule> (*columns)();
};

/// The runner for an algorithm name, or nullptr.
const Runner* find_runner(const std::string& algorithm);
/// Names of all algorithms, for messages.
std::vector<std::string> algorithm_names();

std::unique_ptr<Job> parse_coalition(const ConfigNode& run, const RunContext& context);
std::unique_ptr<Job> parse_kemeny(const ConfigNode& run, const RunContext& context);
std::unique_ptr<Job> parse_ranksvm(const ConfigNode& run, const RunContext& context);
std::unique_ptr<Job> parse_schulze(const ConfigNode& run, const RunContext& context);
std::vector<FieldRule> coalition_columns();
std::vector<FieldRule> kemeny_columns();
std::vector<FieldRule> ranksvm_columns();
std::vector<FieldRule> schulze_columns();

}  // namespace kollective::driver

#endif
