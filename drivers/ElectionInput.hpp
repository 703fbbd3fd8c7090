#ifndef KOLLECTIVE_DRIVERS_ELECTIONINPUT_HPP
#define KOLLECTIVE_DRIVERS_ELECTIONINPUT_HPP

/// \file ElectionInput.hpp
/// The `input:` section shared by the voting runners: a PrefLib file, a pairwise-matrix CSV (of
/// counts, or of signed weights), a weight matrix in LOLIB's format, or a seeded generator
/// (impartial_culture, mallows, mallows_mixture, kemeny_benchmark, random_pairwise).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kollective/core/Config.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/core/preferences/Profile.hpp"
#include "kollective/drivers/Runner.hpp"

namespace kollective::driver {

struct ElectionInput {
  enum class Kind { preflib, matrix, lolib, generator };
  Kind kind = Kind::generator;
  std::string path;     ///< preflib / matrix / lolib file, resolved
  std::string written;  ///< that path as the config gives it (the table's input: the same wherever it runs)
  preferences::Cells cells = preferences::Cells::counts;  ///< a matrix's cells (`weights: counts | signed`)
  std::string model;                                      ///< generator model
  int alternatives = 0;
  std::int64_t voters = 0;
  double phi = 0.5;
  std::uint64_t seed = 1;

  /// random_pairwise is generated straight on the device (no ballots, no host copy).
  bool generated_on_device() const { return kind == Kind::generator && model == "random_pairwise"; }
  /// Signed weights of a weighted tournament: no ballots and no voter counts behind them.
  bool weighted() const { return kind == Kind::lolib || cells == preferences::Cells::signed_weights; }
  std::string describe() const;
};

ElectionInput parse_election_input(const ConfigNode& input, const RunContext& context);

/// A profile or a matrix read or generated on the host (not for random_pairwise).
struct HostElection {
  std::optional<preferences::Profile> profile;
  std::optional<preferences::PairwiseCounts> counts;
  std::vector<std::string> names;
  int alternatives = 0;
  std::int64_t voters = 0;  ///< 0 when unknown (matrix input)
};

HostElection load_host_election(const ElectionInput& input);

/// Checks the keys shared by every voting run (name, algorithm, input, options, sweep,
/// repetitions, warmup, verify, write) and its input; returns the input.
ElectionInput validate_election_run(const ConfigNode& run, const RunContext& context);

/// The inputs of a run: its own, or one per (alternatives, voters) pair of its sweep, each value
/// checked like a written-out one.
std::vector<ElectionInput> sweep_inputs(const ConfigNode& run, const RunContext& context);

/// What a sweep point adds to its result files' names, "_n<alternatives>_v<voters>"; "" for a
/// run of one point.
std::string sweep_suffix(std::size_t points, int alternatives, std::int64_t voters);

/// Reads every file input of sweep_inputs (so it parses before any run starts) and checks that
/// each input fits in host memory, with an n x n pairwise matrix when `pairwise_on_host`, and the
/// whole pairwise matrix in device memory unless `whole_matrix` is false (a solve shared by the
/// ranks checks its own rows). Returns the inputs with the alternatives of each file read.
std::vector<ElectionInput> check_election_inputs(std::vector<ElectionInput> inputs, bool pairwise_on_host,
                                                 bool whole_matrix = true);

/// A voting run: its inputs (its own, or one per sweep point), one point each.
class ElectionJob : public Job {
 public:
  std::vector<double> point_seconds() const override {
    std::vector<double> seconds;
    for (const ElectionInput& input : inputs_) seconds.push_back(input_seconds(input));
    return seconds;
  }
  void run_point(std::size_t point, const RunContext& context, Table& table) const override {
    run_input(inputs_.at(point), context, table);
  }

 protected:
  /// One input: solve, verify, write its files and add its row.
  virtual void run_input(const ElectionInput& input, const RunContext& context, Table& table) const = 0;
  /// Rough seconds of one input (its alternatives are 0 when a file has not been read yet).
  virtual double input_seconds(const ElectionInput& input) const = 0;
  /// Set by the derived job's constructor after its own settings, so that errors in the options
  /// are reported before errors in the input, as the keys appear in a run.
  std::vector<ElectionInput> inputs_;
};

/// Host bytes of the pairwise counts of n alternatives as built from a profile (12 n^2).
std::int64_t pairwise_host_bytes(int alternatives);
/// Fails, naming the input, unless a generated profile and (if asked) its pairwise counts fit in
/// host memory, and (if `whole_matrix`) its pairwise matrix in device memory.
void require_election_memory(const ElectionInput& input, bool pairwise_on_host, bool whole_matrix = true);

/// The pairwise counts of a profile, after checking they fit in host memory.
preferences::PairwiseCounts host_pairwise(const preferences::Profile& profile, const ElectionInput& input);

}  // namespace kollective::driver

#endif
