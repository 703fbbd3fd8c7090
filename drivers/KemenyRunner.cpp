/// \file KemenyRunner.cpp
/// `algorithm: kemeny`: exact consensus rankings (enumeration, subset DP, decomposition) or
/// bounds and heuristics, with verification against brute force / a second exact method.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/KemenyCertificate.hpp"
#include "kollective/algorithms/kemeny/KemenyIO.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/core/Csv.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/drivers/ConfigKeys.hpp"
#include "kollective/drivers/Estimate.hpp"
#include "kollective/drivers/ElectionInput.hpp"
#include "kollective/drivers/OptionReader.hpp"
#include "kollective/drivers/RunLoop.hpp"
#include "kollective/drivers/Reporting.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {

namespace prefs = kollective::preferences;
using Space = Kokkos::DefaultExecutionSpace;

struct KemenySettings {
  kemeny::Options options;
  Measurement measurement;     ///< verify auto: whatever kemeny::verify can check
  bool write_rankings = true;  ///< write.certificate is options.certify
};

KemenySettings parse_settings(const ConfigNode& run) {
  KemenySettings settings;
  if (run.has("options")) {
    const ConfigNode options = run.required("options");
    options.expect_keys(keys_under("kemeny", "options"), former_keys_under("kemeny", "options"));
    read_fields(options, kemeny::option_fields(), settings.options);
    refuse(options, kemeny::option_fields(), kemeny::check(settings.options));
  }
  settings.options.reporter = reporter(!quiet());
  settings.measurement = parse_measurement(run);
  settings.options.communicator = shared_by(settings.measurement);
  if (run.has("write")) {
    const ConfigNode write = run.required("write");
    write.expect_keys(keys_under("kemeny", "write"));
    settings.write_rankings = write.get_bool("rankings", true);
    settings.options.certify = write.get_bool("certificate", false);
  }
  return settings;
}

/// Votes (or weights) from a doubled count: exact in a double below 2^53 (halves come from ties).
double votes(std::int64_t doubled) { return static_cast<double>(doubled) / 2; }

/// The counts of an input, and for a generated one its profile (nullopt for random_pairwise).
kemeny::Counts load_counts(const ElectionInput& input, std::int64_t& voters, std::optional<prefs::Profile>& generated) {
  if (input.generated_on_device()) {
    Space space;
    auto doubled =
        prefs::random_pairwise(space, input.alternatives, static_cast<std::uint32_t>(input.voters), input.seed);
    voters = input.voters;
    return prefs::to_host(doubled, prefs::numbered_names(input.alternatives));
  }
  HostElection host = load_host_election(input);
  voters = host.voters;
  if (input.kind == ElectionInput::Kind::generator) generated = host.profile;
  return host.counts ? *host.counts : host_pairwise(*host.profile, input);
}

/// How a certificate's checker reads the input file: by its format and cells.
std::string input_format(const ElectionInput& input) {
  if (input.kind == ElectionInput::Kind::lolib) return "lolib";
  if (input.kind == ElectionInput::Kind::preflib) return "preflib";
  if (input.kind == ElectionInput::Kind::matrix) return input.weighted() ? "matrix-signed" : "matrix-counts";
  return input.generated_on_device() ? "matrix-counts" : "preflib";  // the run writes it (_input.csv / .soc)
}

TextList ranking_names(const kemeny::Ranking& ranking, const std::vector<std::string>& names) {
  TextList list;
  for (int a : ranking) list.push_back(names[a]);
  return list;
}

class KemenyJob : public ElectionJob {
 public:
  KemenyJob(const ConfigNode& run, const RunContext& context) : settings_(parse_settings(run)) {
    inputs_ = sweep_inputs(run, context);
  }

  void validate(const RunContext&) const override {
    const kemeny::Method method = settings_.options.method;
    for (const ElectionInput& input : check_election_inputs(inputs_, true)) {
      // The exact methods' own limits, known from n alone (auto falls back to the heuristic).
      const int n = input.alternatives;
      if (method == kemeny::Method::dp && n > kemeny::dp_max_alternatives) {
        fail("the Kemeny subset DP is limited to ", kemeny::dp_max_alternatives, " alternatives; ", input.describe(),
             " has ", n, " (use method auto or heuristic)");
      }
      if (method == kemeny::Method::dp && settings_.measurement.shared) {
        kemeny::require_shared_dp_memory(n, world(), 4, " of " + input.describe());
      } else if (method == kemeny::Method::dp) {
        require_device_memory(kemeny::dp_bytes(n, 4), "the Kemeny subset DP over " + std::to_string(n) +
                                                          " alternatives of " + input.describe());
      }
      if (settings_.measurement.verify == Verify::always && !kemeny::can_verify(n, method)) {
        fail("verify: true, but no independent check applies to ", n, " alternatives (", input.describe(),
             "): verify re-solves n <= ", kemeny::enumeration_verify_max,
             " by enumeration, or checks method enumeration by the DP; set verify: auto or false");
      }
      if (method == kemeny::Method::enumeration && n > kemeny::enumeration_max_alternatives) {
        fail("Kemeny enumeration over n! rankings is limited to ", kemeny::enumeration_max_alternatives,
             " alternatives; ", input.describe(), " has ", n, " (use method dp or auto)");
      }
    }
  }

  bool shares_solves() const override { return settings_.measurement.shared; }

 private:
  /// The subset DP's time for DP-sized inputs (auto may do far less after decomposition).
  double input_seconds(const ElectionInput& input) const override {
    const int n = std::min(input.alternatives, kemeny::dp_max_alternatives);
    return settings_.measurement.solves() * estimated_seconds(Work::kemeny_dp_steps, n * std::ldexp(1.0, n));
  }

  void run_input(const ElectionInput& input, const RunContext& context, Table& table) const override {
    const Space space;
    const Measurement& measurement = settings_.measurement;
    std::int64_t voters = 0;
    std::optional<prefs::Profile> generated;
    const kemeny::Counts o = load_counts(input, voters, generated);
    const kemeny::PlannedWork work = kemeny::planned_work(o, settings_.options, available_device_bytes());
    const std::string n = std::to_string(o.alternatives);
    if (work.rankings > 0)
      check_work(measurement, Work::kemeny_rankings, work.rankings, "enumerating the " + n + "! rankings");
    const int ranks = settings_.options.communicator.size();  // share the DP's steps
    if (work.dp_steps > 0)
      check_work(measurement, Work::kemeny_dp_steps, work.dp_steps / ranks, "the subset DP of " + n + " alternatives");
    Timing times;
    Workspace<Space::memory_space> workspace;  // the DP's buffers, reused by the repetitions
    const kemeny::Result result =
        measure(space, measurement, times, [&] { return kemeny::solve(space, o, settings_.options, workspace); });
    workspace.release();  // before verify's own solves
    std::string verified = "skipped";
    if (measurement.verify != Verify::never) {
      const std::string against = kemeny::verify(space, result, o, settings_.options);
      if (against.empty() && measurement.verify == Verify::always) {
        fail("verify: true, but no independent check applies (an inexact result, or n > ",
             kemeny::enumeration_verify_max, " with method ", result.method, ")");
      }
      if (!against.empty()) verified = against;
    }

    const std::string suffix = sweep_suffix(inputs_.size(), o.alternatives, input.voters);
    if (settings_.write_rankings)
      context.files->write(context.run_name + suffix + "_rankings.csv", kemeny::rankings_csv(result, o));
    if (settings_.options.certify && result.exact) write_certificate(input, context, suffix, result, o, generated);
    const double seconds = times.median();
    Row row;
    row.set("run", context.run_name).set("input", input.describe()).set("alternatives", o.alternatives);
    if (voters) row.set("voters", voters);  // unknown for a pairwise-matrix input
    row.set("method", result.method)
        .set("exact", result.exact)
        .set("distance", votes(kemeny::input_distance(o, result.distance)))
        .set("lower_bound", votes(kemeny::input_distance(o, result.lower_bound)))
        .set("gap", votes(static_cast<std::int64_t>(result.distance - result.lower_bound)))
        .set("lop_value", votes(kemeny::lop_value(o, result.distance)))
        .set("lop_upper_bound", votes(kemeny::lop_value(o, result.lower_bound)))
        .set("lp_s", result.lp_seconds)
        .set("lp_rounds", result.lp_rounds)
        .set("lp_cuts", result.lp_cuts)
        .set("search_nodes", result.search_nodes);
    if (result.reduction_pairs > 0) {  // the data reduction ran (auto, components given to the LP search)
      row.set("reduction_pairs", result.reduction_pairs)
          .set("fixed_by_exchange", result.fixed_by_exchange)
          .set("fixed_by_majority", result.fixed_by_majority)
          .set("fixed_by_closure", result.fixed_by_closure);
    }
    row.set("count_known", result.count_known);
    if (result.exact && result.count > 0) {  // exact when count_known, else at least this many (0: not searched)
      row.set("optimal_rankings", result.count).set("optimal_rankings_saturated", result.count_saturated);
    }
    row.set("listed_rankings", result.optima.size())
        .set("consensus", ranking_names(result.optima.front(), o.names))
        .set("components", result.component_sizes.size())
        .set("largest_component", *std::max_element(result.component_sizes.begin(), result.component_sizes.end()))
        .set("component_methods", result.component_methods)
        .set("repetitions", measurement.repetitions)
        .set("solve_s", seconds)
        .set("solve_min_s", times.min());
    if (result.dp_seconds > 0) row.set("dp_layers_s", result.dp_seconds);            // of the last repetition
    if (settings_.measurement.shared) {                                              // of the last repetition
      row.set("dp_ranks", result.ranks).set("exchange_s", result.exchange_seconds);  // rank 0's
      set_rank_range(row, "exchange_s", result.exchange_seconds, world().rank() < result.ranks);
    }
    row.set("verified", verified);
    table.add(row);

    std::cout << context.run_name << ": Kemeny (" << result.method << ") on " << o.alternatives << " alternatives";
    if (voters) std::cout << ", " << voters << " voters";
    std::cout << "\n  " << (result.exact ? "optimal" : "best found") << " distance "
              << doubled_votes_text(kemeny::input_distance(o, result.distance)) << " (linear ordering value "
              << doubled_votes_text(kemeny::lop_value(o, result.distance)) << ")";
    if (!result.exact) {
      std::cout << " (lower bound " << doubled_votes_text(kemeny::input_distance(o, result.lower_bound)) << ", gap "
                << doubled_votes_text(static_cast<long long>(result.distance - result.lower_bound)) << ")";
      if (result.lp_missing)
        std::cout << "\n  this build has no LP bound (COIN-OR CLP), which might certify it: see docs/configuration.md";
    }
    if (result.exact && result.count > 0) {
      const std::string count = result.count_saturated ? ">= 2^64" : std::to_string(result.count);
      std::cout << ", " << (result.count_known ? "" : "at least ") << count << " optimal ranking"
                << (result.count == 1 ? "" : "s");
      if (!result.count_known) std::cout << " (counting stopped at its step limit)";
    } else if (result.exact) {
      std::cout << " (it meets the lower bound; other optimal rankings were not searched)";
    }
    std::cout << "\n  consensus: " << kemeny::format_ranking(result.optima.front(), o.names) << "\n";
    std::printf("  %.4f s; %zu components (largest %d); verified: %s\n", seconds, result.component_sizes.size(),
                *std::max_element(result.component_sizes.begin(), result.component_sizes.end()), verified.c_str());
  }

  /// The certificate of an exact result, and for a generated input the input it proves (a PrefLib
  /// file of the profile, or the random tournament's counts), so that it can be checked alone.
  static void write_certificate(const ElectionInput& input, const RunContext& context, const std::string& suffix,
                                const kemeny::Result& result, const kemeny::Counts& o,
                                const std::optional<prefs::Profile>& generated) {
    const std::string stem = context.run_name + suffix;
    context.files->write(stem + "_certificate.json", kemeny::certificate_json(result, o, input_format(input)));
    if (input.generated_on_device()) prefs::write_pairwise_csv(o, context.output_file(suffix + "_input.csv"));
    if (generated) {
      std::ostringstream text;
      prefs::write_preflib(*generated, text, stem + "_input." + prefs::to_string(generated->data_type()));
      context.files->write(stem + "_input." + prefs::to_string(generated->data_type()), text.str());
    }
  }

  KemenySettings settings_;
};

}  // namespace

std::unique_ptr<Job> parse_kemeny(const ConfigNode& run, const RunContext& context) {
  return std::make_unique<KemenyJob>(run, context);
}

}  // namespace kollective::driver
