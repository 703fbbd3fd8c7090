#include "kollective/drivers/ElectionInput.hpp"

#include <algorithm>
#include <filesystem>

#include "kollective/core/Csv.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/TextInput.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/drivers/ConfigKeys.hpp"

namespace kollective::driver {

namespace prefs = kollective::preferences;

namespace {

/// Largest alternatives a generator takes: random_pairwise draws only the matrix, on the device.
std::int64_t max_alternatives(const std::string& model) { return model == "random_pairwise" ? 1 << 20 : 100000; }

/// `value` of generator key `key` ("alternatives" or "voters"), checked against the model's range;
/// `where` is the config node the value came from (the generator or a sweep list).
std::int64_t checked_size(const ConfigNode& where, const std::string& key, std::int64_t value,
                          const std::string& model) {
  const std::int64_t high = key == "alternatives" ? max_alternatives(model) : (std::int64_t{1} << 31) - 1;
  // kemeny_benchmark draws profiles without a Condorcet winner: one ballot, or two alternatives, has one.
  const std::int64_t low = model != "kemeny_benchmark" ? 1 : key == "alternatives" ? 3 : 2;
  if (value < low || value > high) {
    const ConfigNode node = where.has(key) ? where.required(key) : where;
    node.error(key + " " + std::to_string(value) + " is outside [" + std::to_string(low) + ", " + std::to_string(high) +
               "] for " + model);
  }
  return value;
}

/// Host bytes a generated profile takes: a ballot holds a vector per group (strict orders: one
/// per alternative, about 64 bytes with its heap block).
std::int64_t generated_profile_bytes(const ElectionInput& input) {
  const std::int64_t ballots =
      input.model == "kemeny_benchmark" ? std::min<std::int64_t>(input.voters, std::int64_t{1} << 40) : input.voters;
  return checked_mul(ballots, 64 * (std::int64_t{input.alternatives} + 1), "the generated profile");
}

}  // namespace

std::int64_t pairwise_host_bytes(int alternatives) {
  return checked_mul(12 * std::int64_t{alternatives}, alternatives, "the pairwise counts");
}

void require_election_memory(const ElectionInput& input, bool pairwise_on_host, bool whole_matrix) {
  std::int64_t bytes =
      input.kind == ElectionInput::Kind::generator && !input.generated_on_device() ? generated_profile_bytes(input) : 0;
  if (pairwise_on_host) bytes += pairwise_host_bytes(input.alternatives);
  require_host_memory(bytes, input.describe() + " (" + std::to_string(input.alternatives) + " alternatives" +
                                 (pairwise_on_host ? ", with its pairwise counts" : "") + ")");
  // Every election algorithm starts from the n x n pairwise matrix on the device (4-byte cells),
  // but for a solve shared by the ranks, which checks its own rows.
  if (!whole_matrix) return;
  require_device_memory(
      checked_mul(4 * std::int64_t{input.alternatives}, input.alternatives, "the pairwise matrix"),
      "the pairwise matrix of " + input.describe() + " (" + std::to_string(input.alternatives) + " alternatives)");
}

ElectionInput parse_election_input(const ConfigNode& input, const RunContext& context) {
  input.expect_keys(keys_under("election input", "input"));
  const int given = input.has("preflib") + input.has("matrix") + input.has("lolib") + input.has("generator");
  if (given != 1) input.error("give exactly one of preflib, matrix, lolib or generator");
  if (input.has("weights") && !input.has("matrix")) input.required("weights").error("weights applies only to a matrix");
  ElectionInput result;
  if (input.has("lolib")) {
    result.kind = ElectionInput::Kind::lolib;
    result.path = context.input_path(input.required("lolib"));
    result.written = input.required("lolib").as_string();
    return result;
  }
  if (input.has("preflib")) {
    result.kind = ElectionInput::Kind::preflib;
    result.path = context.input_path(input.required("preflib"));
    result.written = input.required("preflib").as_string();
    return result;
  }
  if (input.has("matrix")) {
    result.kind = ElectionInput::Kind::matrix;
    result.path = context.input_path(input.required("matrix"));
    result.written = input.required("matrix").as_string();
    if (input.has("weights") && input.required("weights").as_choice({"counts", "signed"}) == "signed")
      result.cells = prefs::Cells::signed_weights;
    return result;
  }
  const ConfigNode generator = input.required("generator");
  generator.expect_keys(keys_under("election input", "input.generator"));
  result.kind = ElectionInput::Kind::generator;
  result.model = generator.required("model").as_choice(
      {"impartial_culture", "mallows", "mallows_mixture", "kemeny_benchmark", "random_pairwise"});
  result.alternatives = static_cast<int>(
      checked_size(generator, "alternatives", generator.required("alternatives").as_int(), result.model));
  result.voters = checked_size(generator, "voters", generator.get_int("voters", 100), result.model);
  result.phi = generator.get_double("phi", 0.5);
  if (generator.has("phi") && (result.phi < 0 || result.phi > 1))
    generator.required("phi").error("phi must be in [0, 1]");
  if (generator.has("phi") && result.model != "mallows" && result.model != "mallows_mixture")
    generator.required("phi").error("phi applies only to the mallows and mallows_mixture models");
  result.seed = static_cast<std::uint64_t>(generator.get_int_in("seed", 1, 0, INT64_MAX));
  return result;
}

std::string ElectionInput::describe() const {
  switch (kind) {
    case Kind::preflib:
      return "preflib:" + written;
    case Kind::matrix:
      return "matrix:" + written + (weighted() ? " (signed weights)" : "");
    case Kind::lolib:
      return "lolib:" + written;
    case Kind::generator:
      break;
  }
  std::string text = model + "(n=" + std::to_string(alternatives) + ", voters=" + std::to_string(voters);
  if (model == "mallows" || model == "mallows_mixture") text += ", phi=" + exact_text(phi);
  return text + ", seed=" + std::to_string(seed) + ")";
}

HostElection load_host_election(const ElectionInput& input) {
  HostElection election;
  if (input.kind == ElectionInput::Kind::generator) require_election_memory(input, false);
  if (input.kind == ElectionInput::Kind::matrix || input.kind == ElectionInput::Kind::lolib) {
    election.counts = input.kind == ElectionInput::Kind::lolib ? prefs::read_lolib(input.path)
                                                               : prefs::read_pairwise_csv(input.path, input.cells);
    election.names = election.counts->names;
    election.alternatives = election.counts->alternatives;
    return election;
  }
  if (input.kind == ElectionInput::Kind::preflib) {
    election.profile = prefs::read_preflib(input.path);
  } else {
    election.profile = prefs::generate_profile(input.model, input.alternatives, input.voters, input.phi, input.seed);
  }
  election.names = election.profile->names;
  election.alternatives = election.profile->alternatives;
  election.voters = election.profile->total_weight();
  return election;
}

std::string sweep_suffix(std::size_t points, int alternatives, std::int64_t voters) {
  return points > 1 ? "_n" + std::to_string(alternatives) + "_v" + std::to_string(voters) : "";
}

ElectionInput validate_election_run(const ConfigNode& run, const RunContext& context) {
  run.expect_keys(keys_under("run", "", run.required("algorithm").as_string()));
  const ElectionInput input = parse_election_input(run.required("input"), context);
  if (run.has("sweep") && input.kind != ElectionInput::Kind::generator) {
    run.required("sweep").error("a sweep needs a generator input");
  }
  if (run.has("sweep")) run.required("sweep").expect_keys(keys_under("election input", "sweep"));
  return input;
}

namespace {

/// Values of a `sweep:` key, each checked exactly like a written-out generator value.
std::vector<std::int64_t> sweep_values(const ConfigNode& run, const std::string& key, const ElectionInput& base) {
  const std::int64_t own = key == "alternatives" ? base.alternatives : base.voters;
  if (!run.has("sweep") || !run.required("sweep").has(key)) return {own};
  const ConfigNode sweep = run.required("sweep");
  std::vector<std::int64_t> values = sweep.get_int_list(key, {});
  if (values.empty()) sweep.required(key).error("empty sweep list");
  for (const std::int64_t value : values) checked_size(sweep, key, value, base.model);
  return values;
}

}  // namespace

std::vector<ElectionInput> sweep_inputs(const ConfigNode& run, const RunContext& context) {
  const ElectionInput base = validate_election_run(run, context);
  std::vector<ElectionInput> inputs;
  for (const std::int64_t n : sweep_values(run, "alternatives", base)) {
    for (const std::int64_t voters : sweep_values(run, "voters", base)) {
      ElectionInput input = base;
      input.alternatives = static_cast<int>(n);
      input.voters = voters;
      inputs.push_back(input);
    }
  }
  return inputs;
}

std::vector<ElectionInput> check_election_inputs(std::vector<ElectionInput> inputs, bool pairwise_on_host,
                                                 bool whole_matrix) {
  for (ElectionInput& input : inputs) {
    if (input.kind != ElectionInput::Kind::generator) {
      // Read the file now, so that a broken input stops the config before any run starts (a
      // file over 256 MiB is only checked for access here: reading it twice would cost too much).
      check_input_file(input.path, input.kind == ElectionInput::Kind::preflib ? "PrefLib file"
                                   : input.kind == ElectionInput::Kind::lolib ? "LOLIB matrix"
                                                                              : "pairwise matrix");
      std::error_code error;
      if (std::filesystem::file_size(input.path, error) > (std::uintmax_t{1} << 28) && !error) continue;
      const HostElection election = load_host_election(input);
      input.alternatives = election.alternatives;
    }
    require_election_memory(input, pairwise_on_host, whole_matrix);
  }
  return inputs;
}

preferences::PairwiseCounts host_pairwise(const preferences::Profile& profile, const ElectionInput& input) {
  require_host_memory(
      pairwise_host_bytes(profile.alternatives),
      "the pairwise counts of " + input.describe() + " (" + std::to_string(profile.alternatives) + " alternatives)");
  return prefs::pairwise_reference(profile);
}

}  // namespace kollective::driver
