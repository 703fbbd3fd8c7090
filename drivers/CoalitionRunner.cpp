/// \file CoalitionRunner.cpp
/// `algorithm: coalition`: optimal coalition structures by DP or IDP on the device.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/TextInput.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/drivers/Columns.hpp"
#include "kollective/drivers/ConfigKeys.hpp"
#include "kollective/drivers/Estimate.hpp"
#include "kollective/drivers/OptionReader.hpp"
#include "kollective/drivers/RunLoop.hpp"
#include "kollective/drivers/Runner.hpp"
#include "kollective/drivers/Reporting.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {

using Space = Kokkos::DefaultExecutionSpace;

struct CoalitionRun {
  std::string file;                     ///< a value file, or empty for a generator
  std::string written;                  ///< the file as the config gives it (the table's input)
  std::string format;                   ///< text (Rahwan) | binary | bids
  std::string model;                    ///< one of coalition::value_models()
  std::vector<std::string> names;       ///< agent names (default: 1..n)
  std::optional<ConfigNode> names_key;  ///< where the config gives them, for errors
  std::vector<std::int64_t> agents;
  std::uint64_t seed = 1234;
  coalition::Options options;
  Measurement measurement;  ///< verify auto: brute force for n <= 12
  bool write_values = false;
  bool write_binary = false;
  bool single_precision() const { return coalition::solve_precision(options) == Precision::float32; }
};

/// The format of a value file: given, or by extension (.txt text, .kcsg binary, .bids bids).
std::string file_format(const ConfigNode& input, const std::string& file) {
  const std::string given =
      input.has("format") ? input.required("format").as_choice({"auto", "text", "binary", "bids"}) : "auto";
  if (given != "auto") return given;
  const std::string by_extension = coalition::format_from_extension(file);
  if (!by_extension.empty()) return by_extension;
  input.required("file").error("cannot tell the format of '" + file +
                               "' from its extension (.txt, .kcsg or .bids): give format: text, binary or bids");
}

CoalitionRun parse(const ConfigNode& run, const RunContext& context) {
  run.expect_keys(keys_under("run", "", "coalition"));
  CoalitionRun settings;
  const ConfigNode input = run.required("input");
  input.expect_keys(keys_under("coalition", "input"));
  if (input.has("file") == input.has("generator")) input.error("give exactly one of file or generator");
  std::int64_t agents = 0;
  if (input.has("file")) {
    settings.file = context.input_path(input.required("file"));
    settings.written = input.required("file").as_string();
    settings.format = file_format(input, settings.file);
    if (run.has("sweep")) run.required("sweep").error("a sweep needs a generator input");
  } else {
    const ConfigNode generator = input.required("generator");
    generator.expect_keys(keys_under("coalition", "input.generator"));
    settings.model = generator.required("model").as_choice(coalition::value_models());
    agents = generator.get_int_in("agents", 10, 1, coalition::max_agents);
    settings.seed = static_cast<std::uint64_t>(generator.get_int_in("seed", 1234, 0, 0xffffffffll));
  }
  if (input.has("names")) {
    settings.names_key = input.required("names");
    for (const auto& name : input.required("names").elements()) {
      const std::string text = name.as_string();
      if (text.empty()) name.error("an agent name must not be empty");
      for (const auto& earlier : settings.names) {
        if (earlier == text) name.error("agent name '" + text + "' is given twice");
      }
      settings.names.push_back(text);
    }
    if (input.has("generator") && static_cast<std::int64_t>(settings.names.size()) != agents) {
      input.required("names").error("gives " + std::to_string(settings.names.size()) + " names for " +
                                    std::to_string(agents) + " agents");
    }
    if (run.has("sweep")) input.required("names").error("names cannot be given with a sweep over agents");
  }
  settings.agents = {agents};
  if (run.has("sweep")) {
    const ConfigNode sweep = run.required("sweep");
    sweep.expect_keys(keys_under("coalition", "sweep"));
    settings.agents = sweep.get_int_list("agents", {agents});
    for (auto n : settings.agents) {
      if (n < 1 || n > coalition::max_agents) sweep.required("agents").error("agents must be in 1..40");
    }
  }
  settings.measurement = parse_measurement(run);
  settings.options.communicator = shared_by(settings.measurement);  // before the options' check
  if (run.has("options")) {
    const ConfigNode options = run.required("options");
    options.expect_keys(keys_under("coalition", "options"), former_keys_under("coalition", "options"));
    read_fields(options, coalition::option_fields(), settings.options);
    refuse(options, coalition::option_fields(), coalition::check(settings.options));
    warn_ignored(options, coalition::option_fields(), coalition::ignored_settings(settings.options));
  }
  settings.options.reporter = reporter(!quiet());
  for (const std::int64_t n : settings.agents) {  // a file's agents are known when it is read
    if (settings.measurement.verify == Verify::always && n > coalition::brute_force_max_agents) {
      run.required("verify").error("verify: true needs at most " + std::to_string(coalition::brute_force_max_agents) +
                                   " agents (brute force over all set partitions), not " + std::to_string(n));
    }
  }
  if (run.has("write")) {
    run.required("write").expect_keys(keys_under("coalition", "write"));
    settings.write_values = run.required("write").get_bool("values", false);
    settings.write_binary = run.required("write").get_bool("binary", false);
  }
  return settings;
}

/// The agents' names a config gives, checked against the game's size (its file's, or its generator's).
void check_names(const CoalitionRun& settings, int agents) {
  if (settings.names.empty() || static_cast<int>(settings.names.size()) == agents) return;
  settings.names_key->error(
      "gives " + std::to_string(settings.names.size()) + " names for the " + std::to_string(agents) + " agents of " +
      (settings.file.empty() ? "the " + settings.model + " generator" : "'" + settings.file + "'"));
}

coalition::Game make_game(const CoalitionRun& settings, int agents) {
  coalition::Game game;
  if (settings.file.empty()) {
    game = coalition::generate_game(settings.model, agents, settings.seed);
  } else {
    game = coalition::read_game(settings.file, settings.format);
  }
  if (settings.single_precision()) {
    coalition::validate_values(game, settings.file.empty() ? settings.model + " generator" : settings.file, true);
  }
  check_names(settings, game.agents);
  if (!settings.names.empty()) game.names = settings.names;
  return game;
}

/// A point's values: made or read into the device's memory where it is not the host's and a
/// generator makes them or a text or binary file holds them (the host gets a copy only where files
/// or the brute-force check need one), else on the host.
struct PointValues {
  coalition::Game game;                             ///< the host's (no values where only the device holds them)
  Kokkos::View<double*, Space::memory_space> made;  ///< the device's, or empty
  int agents = 0;
};

/// `values.made`, read from the point's file into the device (a batch at a time), then named.
void read_on_device(const Space& space, const CoalitionRun& settings, PointValues& values) {
  values.made = coalition::read_values(space, settings.file, settings.format);
  values.agents = static_cast<int>(Kokkos::countr_zero(values.made.extent(0)));
  if (settings.single_precision())
    coalition::Impl::validate_on(space, Kokkos::View<const double*, Space::memory_space>(values.made), settings.file,
                                 true);
  check_names(settings, values.agents);
  values.game = coalition::Game{values.agents, {}, settings.names};
}

PointValues point_values(const Space& space, const CoalitionRun& settings, int agents, bool host_copy) {
  constexpr bool device_memory = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible;
  if (device_memory && !host_copy && !settings.file.empty() && settings.format != "bids") {
    PointValues values;
    read_on_device(space, settings, values);
    return values;
  }
  if (!device_memory || !settings.file.empty()) {
    coalition::Game game = make_game(settings, agents);
    const int n = game.agents;
    return {std::move(game), {}, n};
  }
  check_names(settings, agents);
  if (agents < 1 || agents > coalition::max_agents)
    fail("coalition games need 1..", coalition::max_agents, " agents, got ", agents);
  if (host_copy) coalition::require_game_memory(agents, settings.model + " generator");
  require_memory(memory_kind<Space::memory_space>(), std::int64_t{8} << agents,
                 "the coalition values of " + std::to_string(agents) + " agents, made on the device");
  PointValues values{coalition::Game{agents, {}, settings.names},
                     Kokkos::View<double*, Space::memory_space>(
                         Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::coalition::values"),
                         std::size_t{1} << agents),
                     agents};
  coalition::generate_values(space, settings.model, agents, settings.seed, values.made);
  space.fence("Kollective::coalition: the values made");
  if (host_copy) {
    values.game.values.resize(values.made.extent(0));
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(values.game.values.data(), values.game.values.size()),
                      values.made);
  }
  return values;
}

/// A point's report: the common columns, the library's result fields, and the rates.
struct CoalitionPoint {
  const Point& point;
  coalition::Report report;
  int agents = 0;
  double input_s = 0, wall_s = 0;
};

const ResultFields<CoalitionPoint>& coalition_fields() {
  using F = FieldKind;
  using P = CoalitionPoint;
  auto seconds = [](const P& p) { return p.point.times->median(); };
  static const ResultFields<P> fields = table_fields<P>(
      joined<P>({
          {field<P>("agents", F::context, "count", "agents", [](const P& p) { return p.agents; })},
          adapt<P>(coalition::result_fields(), [](const P& p) { return p.report; }),
      }),
      {
          field<P>("input_s", F::timing, "s", "making or reading the values", [](const P& p) { return p.input_s; }),
          field<P>("wall_s", F::timing, "s",
                   "the whole point: its input, every solve (warm-up and repetitions), the checks "
                   "and the files",
                   [](const P& p) { return p.wall_s; }),
          field<P>("splits_per_s", F::timing, "1/s", "splits evaluated a second",
                   [seconds](const P& p) { return p.report.result.splits / seconds(p); }),
          field<P>("block_bytes_per_s", F::timing, "B/s",
                   "the blocked DP's block reads a second (the packets its splits use)",
                   [seconds](const P& p) {
                     const Precision precision = p.report.result.precision;
                     return coalition::block_read_bytes(p.agents, p.report.options.method,
                                                        precision == Precision::float32 ? 4 : 8) /
                            seconds(p);
                   }),
      });
  return fields;
}

class CoalitionJob : public Job {
 public:
  CoalitionJob(const ConfigNode& run, const RunContext& context) : settings_(parse(run, context)) {}

  void validate(const RunContext&) const override {
    if (settings_.file.empty()) {
      for (const std::int64_t agents : settings_.agents) {
        coalition::require_game_memory(static_cast<int>(agents), "");
      }
      return;
    }
    // Read the file now, so that a broken input stops the config before any run starts (a file
    // over 256 MiB is only checked for access here: reading it twice would cost too much).
    check_input_file(settings_.file, "coalition values");
    std::error_code error;
    if (std::filesystem::file_size(settings_.file, error) <= (std::uintmax_t{1} << 28) || error) {
      make_game(settings_, 0);
    }
  }

  /// Files are counted as the largest game a generator makes.
  std::vector<double> point_seconds() const override {
    std::vector<double> seconds;
    for (const std::int64_t agents : settings_.agents) {
      const int n = settings_.file.empty() ? static_cast<int>(agents) : coalition::max_agents;
      seconds.push_back(settings_.measurement.solves() *
                        estimated_seconds(Work::csg_splits, coalition::evaluated_splits(n, settings_.options.method)));
    }
    return seconds;
  }

  bool shares_solves() const override { return settings_.measurement.shared; }

  void run_point(std::size_t point, const RunContext& context, Table& table) const override {
    run_size(Space(), static_cast<int>(settings_.agents.at(point)), context, table);
  }

 private:
  void run_size(const Space& space, int agents, const RunContext& context, Table& table) const {
    const CoalitionRun& settings = settings_;
    const Measurement& measurement = settings.measurement;
    const WallTimer wall;
    const bool verifying = measurement.verify == Verify::always ||
                           (measurement.verify == Verify::automatic && agents <= coalition::brute_force_max_agents);
    PointValues values =
        point_values(space, settings, agents, settings.write_values || settings.write_binary || verifying);
    const coalition::Game& game = values.game;
    const double input_s = wall.seconds();
    const int n = values.agents;
    const int ranks = settings.options.communicator.size();  // share each layer
    check_work(measurement, Work::csg_splits, coalition::evaluated_splits(n, settings.options.method) / ranks,
               std::string("the coalition ") + coalition::to_string(settings.options.method) + " over " +
                   std::to_string(n) + " agents");
    Timing times;
    Workspace<Space::memory_space> workspace;  // the table and the trade buffers, reused by the repetitions
    const coalition::Result result = measure(space, measurement, times, [&] {  // a game checked as read or made
      return values.made.data() ? coalition::solve(space, values.made, settings.options, workspace)
                                : coalition::Impl::solve_checked(space, game, settings.options, &workspace);
    });
    values.made = {};     // before the checks
    workspace.release();  // before the checks
    std::string verified = "skipped";
    const bool brute_force_fits = n <= coalition::brute_force_max_agents;
    if (measurement.verify == Verify::always || (measurement.verify == Verify::automatic && brute_force_fits)) {
      if (!brute_force_fits) {
        fail("verify: true needs n <= ", coalition::brute_force_max_agents, " (brute force over all set partitions)");
      }
      verified = coalition::verify(game, settings.options, result);
    }
    const std::string suffix = settings.agents.size() > 1 ? "_n" + std::to_string(n) : "";
    if (settings.write_values) coalition::write_rahwan_text(game, context.output_file(suffix + "_values.txt"));
    if (settings.write_binary)
      coalition::write_binary(game, context.output_file(suffix + "_values.kcsg"), settings.single_precision());
    const std::string input = settings.file.empty() ? settings.model + "(n=" + std::to_string(n) +
                                                          ", seed=" + std::to_string(settings.seed) + ")"
                                                    : settings.format + ":" + settings.written;
    const Point point = timed_point(context.run_name, input, times, measurement, verified, result.exchange_s);
    Row row;
    set_fields(
        row, coalition_fields(),
        CoalitionPoint{point, coalition::Report{result, settings.options, game.names}, n, input_s, wall.seconds()});
    table.add(row);
    std::cout << context.run_name << ": coalition structure for " << n << " agents\n  "
              << summary_line(row, rules_of(coalition_fields())) << "\n";
  }

  CoalitionRun settings_;
};

}  // namespace

std::unique_ptr<Job> parse_coalition(const ConfigNode& run, const RunContext& context) {
  return std::make_unique<CoalitionJob>(run, context);
}

std::vector<FieldRule> coalition_columns() { return rules_of(coalition_fields()); }

}  // namespace kollective::driver
