#ifndef KOLLECTIVE_DRIVERS_ELECTIONINPUT_HPP
#define KOLLECTIVE_DRIVERS_ELECTIONINPUT_HPP

/// \file ElectionInput.hpp
/// The `input:` section shared by the voting runners: a PrefLib file, a pairwise-matrix CSV, or
/// a seeded generator (impartial_culture, mallows, kemeny_benchmark, random_pairwise).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/preferences/Pairwise.hpp"
#include "core/preferences/Profile.hpp"
#include "drivers/Runner.hpp"

namespace kollective::driver {

struct ElectionInput {
  enum class Kind { preflib, matrix, generator };
  Kind kind = Kind::generator;
  std::string path;   ///< preflib / matrix file, resolved
  std::string model;  ///< generator model
  int alternatives = 0;
  std::int64_t voters = 0;
  double phi = 0.5;
  std::uint64_t seed = 1;

  /// random_pairwise is generated straight on the device (no ballots, no host copy).
  bool generated_on_device() const { return kind == Kind::generator && model == "random_pairwise"; }
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

/// Values of a `sweep:` key ("alternatives" or "voters"); the input's own value when absent.
std::vector<std::int64_t> sweep_values(const ConfigNode& run, const std::string& key, std::int64_t own);

/// Checks the keys shared by every voting run (name, algorithm, input, options, sweep,
/// repetitions, warmup, verify, write) and its input and sweep; returns the input.
ElectionInput validate_election_run(const ConfigNode& run, const RunContext& context);

/// The inputs of a run: its own, or one per (alternatives, voters) pair of its sweep.
std::vector<ElectionInput> sweep_inputs(const ConfigNode& run, const RunContext& context);

}  // namespace kollective::driver

#endif
