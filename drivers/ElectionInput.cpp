#include "drivers/ElectionInput.hpp"

#include "core/preferences/Generators.hpp"
#include "core/preferences/PrefLib.hpp"

namespace kollective::driver {

namespace prefs = kollective::preferences;

ElectionInput parse_election_input(const ConfigNode& input, const RunContext& context) {
  input.expect_keys({"preflib", "matrix", "generator"});
  const int given = input.has("preflib") + input.has("matrix") + input.has("generator");
  if (given != 1) input.error("give exactly one of preflib, matrix or generator");
  ElectionInput result;
  if (input.has("preflib")) {
    result.kind = ElectionInput::Kind::preflib;
    result.path = context.resolve(input.required("preflib").as_string());
    return result;
  }
  if (input.has("matrix")) {
    result.kind = ElectionInput::Kind::matrix;
    result.path = context.resolve(input.required("matrix").as_string());
    return result;
  }
  const ConfigNode generator = input.required("generator");
  generator.expect_keys({"model", "alternatives", "voters", "phi", "seed"});
  result.kind = ElectionInput::Kind::generator;
  result.model = generator.required("model").as_choice(
      {"impartial_culture", "mallows", "kemeny_benchmark", "random_pairwise"});
  const bool device = result.model == "random_pairwise";
  result.alternatives = static_cast<int>(generator.get_int_in("alternatives", 8, 1, device ? 1 << 20 : 100000));
  result.voters = generator.get_int_in("voters", 100, 1, (std::int64_t{1} << 31) - 1);
  result.phi = generator.get_double("phi", 0.5);
  if (generator.has("phi") && (result.phi < 0 || result.phi > 1)) generator.required("phi").error("phi must be in [0, 1]");
  if (generator.has("phi") && result.model != "mallows") generator.required("phi").error("phi applies only to the mallows model");
  result.seed = static_cast<std::uint64_t>(generator.get_int_in("seed", 1, 0, INT64_MAX));
  return result;
}

std::string ElectionInput::describe() const {
  switch (kind) {
    case Kind::preflib: return "preflib:" + path;
    case Kind::matrix: return "matrix:" + path;
    case Kind::generator: break;
  }
  std::string text = model + "(n=" + std::to_string(alternatives) + ", voters=" + std::to_string(voters);
  if (model == "mallows") text += ", phi=" + std::to_string(phi);
  return text + ", seed=" + std::to_string(seed) + ")";
}

HostElection load_host_election(const ElectionInput& input) {
  HostElection election;
  if (input.kind == ElectionInput::Kind::matrix) {
    election.counts = prefs::read_pairwise_csv(input.path);
    election.names = election.counts->names;
    election.alternatives = election.counts->alternatives;
    return election;
  }
  if (input.kind == ElectionInput::Kind::preflib) {
    election.profile = prefs::read_preflib(input.path);
  } else if (input.model == "impartial_culture") {
    election.profile = prefs::impartial_culture(input.alternatives, input.voters, input.seed);
  } else if (input.model == "mallows") {
    election.profile = prefs::mallows(input.alternatives, input.voters, input.phi, input.seed);
  } else if (input.model == "kemeny_benchmark") {
    election.profile = prefs::kemeny_benchmark(input.alternatives, input.voters, input.seed);
  } else {
    fail("internal: ", input.model, " is generated on the device");
  }
  election.names = election.profile->names;
  election.alternatives = election.profile->alternatives;
  election.voters = election.profile->total_weight();
  return election;
}

std::vector<std::int64_t> sweep_values(const ConfigNode& run, const std::string& key, std::int64_t own) {
  if (!run.has("sweep")) return {own};
  const ConfigNode sweep = run.required("sweep");
  sweep.expect_keys({"alternatives", "voters"});
  if (!sweep.has(key)) return {own};
  std::vector<std::int64_t> values = sweep.get_int_list(key, {});
  if (values.empty()) sweep.required(key).error("empty sweep list");
  for (auto v : values) {
    if (v < 1) sweep.required(key).error("sweep values must be positive");
  }
  return values;
}

ElectionInput validate_election_run(const ConfigNode& run, const RunContext& context) {
  run.expect_keys({"name", "algorithm", "input", "options", "sweep", "repetitions", "warmup", "verify", "write"});
  const ElectionInput input = parse_election_input(run.required("input"), context);
  if (run.has("sweep") && input.kind != ElectionInput::Kind::generator) {
    run.required("sweep").error("a sweep needs a generator input");
  }
  sweep_values(run, "alternatives", input.alternatives);
  sweep_values(run, "voters", input.voters);
  return input;
}

std::vector<ElectionInput> sweep_inputs(const ConfigNode& run, const RunContext& context) {
  const ElectionInput base = validate_election_run(run, context);
  std::vector<ElectionInput> inputs;
  for (const std::int64_t n : sweep_values(run, "alternatives", base.alternatives)) {
    for (const std::int64_t voters : sweep_values(run, "voters", base.voters)) {
      ElectionInput input = base;
      input.alternatives = static_cast<int>(n);
      input.voters = voters;
      inputs.push_back(input);
    }
  }
  return inputs;
}

}  // namespace kollective::driver
