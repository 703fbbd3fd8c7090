/// \file SchulzeRunner.cpp
/// `algorithm: schulze`: builds the pairwise matrix on the device, solves, verifies against the
/// serial reference for small n, and writes rankings, optional path matrices and table rows.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/algorithms/schulze/SchulzeIO.hpp"
#include "kollective/algorithms/schulze/SchulzeReference.hpp"
#include "kollective/core/Csv.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
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

/// "9.06 T", "41.2 G", "310 M": a rate with the prefix that shows it in 1 to 999.
std::string with_si_prefix(double value) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (value >= 999.5 && k < 5) value /= 1000.0, ++k;
  char text[32];
  std::snprintf(text, sizeof text,
                value < 9.995   ? "%.2f %s"
                : value < 99.95 ? "%.1f %s"
                                : "%.0f %s",
                value, prefixes[k]);
  return text;
}

namespace prefs = kollective::preferences;
using Space = Kokkos::DefaultExecutionSpace;
using Matrix = prefs::PairwiseView<Space::memory_space>;

struct SchulzeSettings {
  schulze::Options options;
  Measurement measurement;  ///< verify auto: the reference runs when n <= schulze::verify_auto_limit
  bool write_ranking = true;
  bool write_paths = false;
  bool write_pairwise = false;
  bool write_beats = false;
};

/// Largest n whose n x n matrices (paths, pairwise, beat relation) are written as CSV files.
constexpr int max_written_matrix = 8192;

SchulzeSettings parse_settings(const ConfigNode& run) {
  SchulzeSettings settings;
  if (run.has("options")) {
    const ConfigNode options = run.required("options");
    options.expect_keys(keys_under("schulze", "options"), former_keys_under("schulze", "options"));
    read_fields(options, schulze::option_fields(), settings.options);
    refuse(options, schulze::option_fields(), schulze::check(settings.options));
  }
  settings.options.reporter = reporter(!quiet());
  settings.measurement = parse_measurement(run);
  if (run.has("write")) {
    const ConfigNode write = run.required("write");
    write.expect_keys(keys_under("schulze", "write"));
    settings.write_ranking = write.get_bool("ranking", true);
    settings.write_paths = write.get_bool("paths", false);
    settings.write_pairwise = write.get_bool("pairwise", false);
    settings.write_beats = write.get_bool("beats", false);
  }
  return settings;
}

/// A point's report: the common columns, the library's result fields, and Schulze's own.
struct SchulzePoint {
  const Point& point;
  schulze::Report report;
  int alternatives = 0;
  std::int64_t voters = 0;  ///< unknown (0) for a pairwise-matrix input
  double pairwise_s = 0;    ///< building the pairwise matrix
  const std::vector<double>& path_times;
};

double paths_s(const SchulzePoint& p) { return median(p.path_times); }
double path_updates(const SchulzePoint& p) { return std::pow(static_cast<double>(p.alternatives), 3); }

const ResultFields<SchulzePoint>& schulze_fields() {
  using F = FieldKind;
  using P = SchulzePoint;
  static const ResultFields<P> fields = table_fields<P>(
      joined<P>({
          {field<P>("alternatives", F::context, "count", "alternatives", [](const P& p) { return p.alternatives; }),
           field_where<P>(
               "voters", F::context, "count", "ballots (their total weight); left out for a pairwise matrix",
               [](const P& p) { return p.voters > 0; }, [](const P& p) { return p.voters; })},
          adapt<P>(schulze::result_fields(), [](const P& p) { return p.report; }),
      }),
      {
          field<P>("pairwise_s", F::timing, "s", "building the pairwise matrix",
                   [](const P& p) { return p.pairwise_s; }),
          field<P>("paths_s", F::timing, "s", "the strongest-path kernels, median of the repetitions", paths_s).shown(),
          field<P>("paths_min_s", F::timing, "s", "the fastest repetition's strongest paths",
                   [](const P& p) { return *std::min_element(p.path_times.begin(), p.path_times.end()); })
              .formerly("paths_s_min"),
          field<P>("tera_updates_per_s", F::timing, "1/s", "strongest-path cell updates (n^3) a second, in 10^12",
                   [](const P& p) { return path_updates(p) / paths_s(p) / 1e12; }),
      });
  return fields;
}

/// An election's doubled counts on the device: the whole matrix for a rank alone, or this rank's
/// rows (schulze::shared_rows) for a solve shared by the ranks.
struct DeviceElection {
  Matrix doubled;                                 ///< alone
  prefs::PairwiseRows<Space::memory_space> rows;  ///< shared
  std::int64_t alternatives = 0;
  std::vector<std::string> names;
  std::int64_t voters = 0;
  std::optional<prefs::Profile> profile;  ///< kept for verifying the pairwise build
  double pairwise_seconds = 0.0;
};

DeviceElection load(const Space& space, const ElectionInput& input, bool shared) {
  DeviceElection election;
  if (input.generated_on_device()) {
    const auto voters = static_cast<std::uint32_t>(input.voters);
    const schulze::SharedRows mine = schulze::shared_rows(input.alternatives, world());
    election.pairwise_seconds = time_fenced(space, [&] {
      if (shared) {
        election.rows =
            prefs::random_pairwise_rows(space, input.alternatives, voters, input.seed, mine.first, mine.count);
      } else {
        election.doubled = prefs::random_pairwise(space, input.alternatives, voters, input.seed);
      }
    });
    election.alternatives = input.alternatives;
    election.names = prefs::numbered_names(input.alternatives);
    election.voters = input.voters;
    return election;
  }
  HostElection host = load_host_election(input);
  const schulze::SharedRows mine = schulze::shared_rows(host.alternatives, world());
  election.alternatives = host.alternatives;
  election.names = host.names;
  election.voters = host.voters;
  election.pairwise_seconds = time_fenced(space, [&] {
    if (shared) {
      election.rows = host.profile ? prefs::build_pairwise_rows(space, *host.profile, mine.first, mine.count)
                                   : prefs::pairwise_rows_to_device(space, *host.counts, mine.first, mine.count);
    } else {
      election.doubled =
          host.profile ? prefs::build_pairwise(space, *host.profile) : prefs::to_device(space, *host.counts);
    }
  });
  election.profile = std::move(host.profile);
  return election;
}

class SchulzeJob : public ElectionJob {
 public:
  SchulzeJob(const ConfigNode& run, const RunContext& context) : settings_(parse_settings(run)) {
    inputs_ = sweep_inputs(run, context);
    if (inputs_.front().weighted()) {  // margins alone would change winning votes' strengths
      run.required("input").error(
          "Schulze needs counts of voters; signed weights (lolib, weights: signed) are "
          "for algorithm kemeny");
    }
  }

  void validate(const RunContext&) const override {
    // The reference check builds the pairwise counts on the host (n <= verify_auto_limit, or any n
    // with verify: true).
    const auto checked =
        check_election_inputs(inputs_, settings_.measurement.verify == Verify::always, !settings_.measurement.shared);
    // The least strength width the solve could take: a size that cannot fit even so is refused
    // before any run (the solve checks again once the width is known).
    const bool narrow = settings_.options.strength_bits == schulze::StrengthBits::bits16 ||
                        (settings_.options.strength_bits == schulze::StrengthBits::automatic && !runs_on_host<Space>);
    for (const ElectionInput& input : checked) {
      if (input.alternatives <= 0) continue;
      const std::string of = " of " + input.describe();
      if (settings_.measurement.shared) {
        schulze::require_shared_memory(input.alternatives, world(), narrow ? 2 : 4, of);
      } else {
        schulze::require_memory(input.alternatives, narrow ? 2 : 4, of);
      }
    }
  }

  bool shares_solves() const override { return settings_.measurement.shared; }

 private:
  double input_seconds(const ElectionInput& input) const override {
    return settings_.measurement.solves() *
           estimated_seconds(Work::schulze_path_updates, std::pow(static_cast<double>(input.alternatives), 3)) /
           ranks();
  }

  void run_input(const ElectionInput& input, const RunContext& context, Table& table) const override {
    const Space space;
    const Measurement& measurement = settings_.measurement;
    // Alone, the whole matrix; shared, this rank's rows (and the whole matrix only where a check
    // or the pairwise file needs it).
    const auto check_time = [&](double alternatives) {
      check_work(measurement, Work::schulze_path_updates, std::pow(alternatives, 3) / ranks(),
                 "the strongest paths of " + std::to_string(static_cast<std::int64_t>(alternatives)) + " alternatives");
    };
    if (input.kind == ElectionInput::Kind::generator) check_time(input.alternatives);  // before making it
    DeviceElection election = load(space, input, settings_.measurement.shared);
    const auto alternatives = static_cast<int>(election.alternatives);
    const bool matrices = settings_.write_paths || settings_.write_beats || settings_.write_pairwise;
    if (matrices && alternatives > max_written_matrix) {
      fail("writing paths, pairwise or beats files is limited to ", max_written_matrix,
           " alternatives (this election has ", alternatives, "); set them to false under write:");
    }
    const bool check = measurement.verify == Verify::always ||
                       (measurement.verify == Verify::automatic && alternatives <= schulze::verify_auto_limit);
    schulze::Options options = settings_.options;
    options.keep_paths = check || settings_.write_paths || settings_.write_beats;
    options.communicator = shared_by(measurement);

    check_time(alternatives);
    Timing solve_times;
    std::vector<double> path_times;
    Workspace<Space::memory_space> workspace;  // the path rows, reused by the repetitions of a solve alone
    const schulze::Result result = measure(
        space, measurement, solve_times,
        [&] {
          return measurement.shared ? schulze::solve_shared(space, election.rows, alternatives, options)
                                    : schulze::solve(space, election.doubled, options, workspace);
        },
        [&](const schulze::Result& each) { path_times.push_back(each.paths_s); });
    workspace.release();  // before the checks
    if (settings_.measurement.shared && (check || settings_.write_pairwise)) {
      const double pairwise_seconds = election.pairwise_seconds;
      election = {};  // room for the whole matrix
      election = load(space, input, false);
      election.pairwise_seconds = pairwise_seconds;
    }

    std::string verified = "skipped";
    if (check) {
      const prefs::PairwiseCounts counts = prefs::to_host(election.doubled, election.names);
      if (election.profile && counts.doubled != host_pairwise(*election.profile, input).doubled) {
        fail("verification failed: the device pairwise matrix differs from the reference");
      }
      verified = schulze::verify(counts, options, result);
    }

    const std::string suffix = sweep_suffix(inputs_.size(), alternatives, input.voters);
    const std::string stem = context.run_name + suffix;
    if (settings_.write_ranking)
      context.files->write(stem + "_ranking.csv", schulze::ranking_csv(result, election.names));
    if (settings_.write_paths)
      schulze::write_paths_csv(result, election.names, context.output_file(suffix + "_paths.csv"));
    if (settings_.write_beats) context.files->write(stem + "_beats.csv", schulze::beats_csv(result, election.names));
    if (settings_.write_pairwise) {
      prefs::write_pairwise_csv(prefs::to_host(election.doubled, election.names),
                                context.output_file(suffix + "_pairwise.csv"));
    }

    const Point point = timed_point(context.run_name, input.describe(), solve_times, measurement, verified,
                                    measurement.shared ? std::optional(result.exchange_s) : std::nullopt);
    const SchulzePoint reported{point,
                                schulze::Report{result, options, election.names},
                                alternatives,
                                election.voters,
                                election.pairwise_seconds,
                                path_times};
    Row row;
    set_fields(row, schulze_fields(), reported);
    table.add(row);
    std::cout << context.run_name << ": Schulze on " << alternatives << " alternatives"
              << (election.voters ? ", " + std::to_string(election.voters) + " voters" : "") << "\n  "
              << summary_line(row, rules_of(schulze_fields())) << "\n";
  }

  /// Ranks sharing each solve.
  int ranks() const { return shared_by(settings_.measurement).size(); }

  SchulzeSettings settings_;
};

}  // namespace

std::unique_ptr<Job> parse_schulze(const ConfigNode& run, const RunContext& context) {
  return std::make_unique<SchulzeJob>(run, context);
}

std::vector<FieldRule> schulze_columns() { return rules_of(schulze_fields()); }

}  // namespace kollective::driver
