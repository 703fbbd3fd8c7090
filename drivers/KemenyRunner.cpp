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
#include "kollective/drivers/Columns.hpp"
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

/// A point's report: the common columns, the library's result fields, and Kemeny's own.
struct KemenyPoint {
  const Point& point;
  kemeny::Report report;
  std::int64_t voters = 0;  ///< unknown (0) for a pairwise-matrix input
  bool shared = false;
};

const ResultFields<KemenyPoint>& kemeny_fields() {
  static const ResultFields<KemenyPoint> fields = table_fields<KemenyPoint>(joined<KemenyPoint>({
      {field<KemenyPoint>("alternatives", FieldKind::context, "count", "alternatives",
                          [](const KemenyPoint& p) { return p.report.counts.alternatives; }),
       field_where<KemenyPoint>(
           "voters", FieldKind::context, "count", "ballots (their total weight); left out for a pairwise matrix",
           [](const KemenyPoint& p) { return p.voters > 0; }, [](const KemenyPoint& p) { return p.voters; })},
      adapt<KemenyPoint>(kemeny::result_fields(), [](const KemenyPoint& p) { return p.report; }),
      {field_where<KemenyPoint>(
          "dp_ranks", FieldKind::outcome, "count", "ranks that shared the largest subset DP",
          [](const KemenyPoint& p) { return p.shared; }, [](const KemenyPoint& p) { return p.report.result.ranks; })},
  }));
  return fields;
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
      const std::string against = kemeny::verify(space, o, settings_.options, result);
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
    const Point point = timed_point(context.run_name, input.describe(), times, measurement, verified,
                                    measurement.shared ? std::optional(result.exchange_s) : std::nullopt,
                                    world().rank() < result.ranks);
    const KemenyPoint reported{point, kemeny::Report{result, o}, voters, measurement.shared};
    Row row;
    set_fields(row, kemeny_fields(), reported);
    table.add(row);
    std::cout << context.run_name << ": Kemeny on " << o.alternatives << " alternatives"
              << (voters ? ", " + std::to_string(voters) + " voters" : "") << "\n  "
              << summary_line(row, rules_of(kemeny_fields())) << "\n";
    if (result.lp_missing)
      std::cout << "  this build has no LP bound (COIN-OR CLP), which might certify it: see docs/configuration.md\n";
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

std::vector<FieldRule> kemeny_columns() { return rules_of(kemeny_fields()); }

}  // namespace kollective::driver
