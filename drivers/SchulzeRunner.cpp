/// \file SchulzeRunner.cpp
/// `algorithm: schulze`: builds the pairwise matrix on the device, solves, verifies against the
/// serial reference for small n, and writes rankings, optional path matrices and table rows.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "algorithms/schulze/Schulze.hpp"
#include "algorithms/schulze/SchulzeIO.hpp"
#include "algorithms/schulze/SchulzeReference.hpp"
#include "core/Csv.hpp"
#include "core/Timer.hpp"
#include "drivers/Estimate.hpp"
#include "drivers/ElectionInput.hpp"

namespace kollective::driver {

namespace {

namespace prefs = kollective::preferences;
using Space = Kokkos::DefaultExecutionSpace;
using Matrix = prefs::PairwiseView<Space::memory_space>;

struct SchulzeSettings {
  schulze::Options options;
  int repetitions = 1;
  int warmup = 0;
  std::string verify = "auto";  ///< auto: the reference runs when n <= verify_limit
  int verify_limit = 512;
  bool write_ranking = true;
  bool write_paths = false;
  bool write_pairwise = false;
  bool write_beats = false;
  double max_seconds = 0;  ///< refuse work estimated to take longer (0: no limit)
};

/// Largest n whose n x n matrices (paths, pairwise, beat relation) are written as CSV files.
constexpr int max_written_matrix = 8192;

SchulzeSettings parse_settings(const ConfigNode& run) {
  SchulzeSettings settings;
  if (run.has("options")) {
    const ConfigNode options = run.required("options");
    options.expect_keys({"rule", "strength_bits"});
    if (options.has("rule")) {
      settings.options.rule = schulze::parse_link_rule(options.required("rule").as_choice({"winning_votes", "margin"}));
    }
    if (options.has("strength_bits")) {
      settings.options.width =
          schulze::parse_strength_width(options.required("strength_bits").as_choice({"auto", "32", "16"}));
    }
  }
  settings.max_seconds = max_seconds(run);
  settings.repetitions = static_cast<int>(run.get_int_in("repetitions", 1, 1, 1000));
  settings.warmup = static_cast<int>(run.get_int_in("warmup", settings.repetitions > 1 ? 1 : 0, 0, 100));
  if (run.has("verify")) {
    settings.verify = run.required("verify").as_choice({"auto", "true", "false"});
  }
  if (run.has("write")) {
    const ConfigNode write = run.required("write");
    write.expect_keys({"ranking", "paths", "pairwise", "beats"});
    settings.write_ranking = write.get_bool("ranking", true);
    settings.write_paths = write.get_bool("paths", false);
    settings.write_pairwise = write.get_bool("pairwise", false);
    settings.write_beats = write.get_bool("beats", false);
  }
  return settings;
}

std::string join_names(const std::vector<int>& indices, const std::vector<std::string>& names, const char* separator,
                       size_t limit) {
  std::string text;
  for (size_t k = 0; k < indices.size() && k < limit; ++k) text += (k ? separator : "") + names[indices[k]];
  if (indices.size() > limit) text += separator + std::string("... (") + std::to_string(indices.size()) + ")";
  return text;
}

std::string ranking_text(const schulze::Result& result, const std::vector<std::string>& names, size_t groups) {
  std::string text;
  for (size_t g = 0; g < result.ranking.size() && g < groups; ++g) {
    const auto& group = result.ranking[g];
    text += g ? " > " : "";
    text += group.size() > 1 ? "{" + join_names(group, names, ", ", 8) + "}" : names[group[0]];
  }
  if (result.ranking.size() > groups) text += " > ...";
  return text;
}

TextList names_of(const std::vector<int>& indices, const std::vector<std::string>& names) {
  TextList list;
  for (int i : indices) list.push_back(names[i]);
  return list;
}

/// The first `groups` groups of the ranking (tied alternatives share a group).
TextGroups ranking_head(const schulze::Result& result, const std::vector<std::string>& names, size_t groups) {
  TextGroups head;
  for (size_t g = 0; g < result.ranking.size() && g < groups; ++g) head.push_back(names_of(result.ranking[g], names));
  return head;
}

struct DeviceElection {
  Matrix doubled;
  std::vector<std::string> names;
  std::int64_t voters = 0;
  std::optional<prefs::Profile> profile;  ///< kept for verifying the pairwise build
  double pairwise_seconds = 0.0;
};

DeviceElection load(const Space& space, const ElectionInput& input) {
  DeviceElection election;
  if (input.generated_on_device()) {
    election.pairwise_seconds = time_fenced(space, [&] {
      election.doubled =
          prefs::random_pairwise(space, input.alternatives, static_cast<std::uint32_t>(input.voters), input.seed);
    });
    election.names = prefs::numbered_names(input.alternatives);
    election.voters = input.voters;
    return election;
  }
  HostElection host = load_host_election(input);
  election.names = host.names;
  election.voters = host.voters;
  election.pairwise_seconds = time_fenced(space, [&] {
    election.doubled =
        host.profile ? prefs::build_pairwise(space, *host.profile) : prefs::to_device(space, *host.counts);
  });
  election.profile = std::move(host.profile);
  return election;
}

}  // namespace

void validate_schulze(const ConfigNode& run, const RunContext& context) {
  const SchulzeSettings settings = parse_settings(run);
  // The reference check builds the pairwise counts on the host (n <= verify_limit, or any n
  // with verify: true).
  check_election_inputs(run, context, settings.verify == "true");
}

void run_schulze(const ConfigNode& run, const RunContext& context, Table& table) {
  const SchulzeSettings settings = parse_settings(run);
  const std::vector<ElectionInput> inputs = sweep_inputs(run, context);
  Space space;
  for (const ElectionInput& input : inputs) {
    DeviceElection election = load(space, input);
    const int alternatives = static_cast<int>(election.doubled.extent(0));
    const bool matrices = settings.write_paths || settings.write_beats || settings.write_pairwise;
    if (matrices && alternatives > max_written_matrix) {
      fail("writing paths, pairwise or beats files is limited to ", max_written_matrix,
           " alternatives (this election has ", alternatives, "); set them to false under write:");
    }
    const bool check =
        settings.verify == "true" || (settings.verify == "auto" && alternatives <= settings.verify_limit);
    schulze::Options options = settings.options;
    options.keep_paths = check || settings.write_paths || settings.write_beats;

    const double updates_per_solve = std::pow(static_cast<double>(alternatives), 3);
    check_estimate(estimated_seconds(Work::schulze_path_updates, updates_per_solve * (settings.repetitions + settings.warmup)),
                   settings.max_seconds, "the strongest paths of " + std::to_string(alternatives) + " alternatives");
    for (int w = 0; w < settings.warmup; ++w) schulze::solve(space, election.doubled, options);
    std::vector<double> solve_times, path_times;
    schulze::Result result;
    for (int r = 0; r < settings.repetitions; ++r) {
      solve_times.push_back(time_fenced(space, [&] { result = schulze::solve(space, election.doubled, options); }));
      path_times.push_back(result.paths_seconds);
    }

    std::string verified = "skipped";
    if (check) {
      const prefs::PairwiseCounts counts = prefs::to_host(election.doubled, election.names);
      if (election.profile && counts.doubled != host_pairwise(*election.profile, input).doubled) {
        fail("verification failed: the device pairwise matrix differs from the reference");
      }
      schulze::verify(result, counts, options.rule);
      verified = "exact";
    }

    const std::string suffix =
        inputs.size() > 1 ? "_n" + std::to_string(alternatives) + "_v" + std::to_string(input.voters) : "";
    const std::string stem = context.run_name + suffix;
    if (settings.write_ranking) context.files->write(stem + "_ranking.csv", schulze::ranking_csv(result, election.names));
    if (settings.write_paths) schulze::write_paths_csv(result, election.names, context.output_file(suffix + "_paths.csv"));
    if (settings.write_beats) context.files->write(stem + "_beats.csv", schulze::beats_csv(result, election.names));
    if (settings.write_pairwise) {
      prefs::write_pairwise_csv(prefs::to_host(election.doubled, election.names),
                                context.output_file(suffix + "_pairwise.csv"));
    }

    const double paths_s = median(path_times), solve_s = median(solve_times);
    const double updates = std::pow(static_cast<double>(alternatives), 3);
    Row row;
    row.set("run", context.run_name).set("input", input.describe()).set("alternatives", alternatives);
    if (election.voters) row.set("voters", election.voters);  // unknown for a pairwise-matrix input
    row.set("rule", schulze::to_string(options.rule))
        .set("strength_bits", result.strength_bits)
        .set("winners", names_of(result.winners, election.names))
        .set("ranking_groups", result.ranking.size())
        .set("ranking_head", ranking_head(result, election.names, 5))
        .set("repetitions", settings.repetitions)
        .set("pairwise_s", election.pairwise_seconds)
        .set("solve_s", solve_s)
        .set("paths_s", paths_s)
        .set("paths_s_min", *std::min_element(path_times.begin(), path_times.end()))
        .set("tera_updates_per_s", updates / paths_s / 1e12)
        .set("verified", verified);
    table.add(row);

    std::cout << context.run_name << ": Schulze (" << schulze::to_string(options.rule) << ", " << result.strength_bits
              << "-bit) on " << alternatives << " alternatives";
    if (election.voters) std::cout << ", " << election.voters << " voters";
    std::cout << "\n  winners: " << join_names(result.winners, election.names, ", ", 10)
              << "\n  ranking by candidates beaten: " << ranking_text(result, election.names, 8) << "\n";
    std::printf("  strongest paths %.4f s (%.3f T cell-updates/s), whole solve %.4f s, pairwise %.4f s; verified: %s\n",
                paths_s, updates / paths_s / 1e12, solve_s, election.pairwise_seconds, verified.c_str());
  }
}

}  // namespace kollective::driver
