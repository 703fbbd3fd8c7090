#include "kollective/drivers/ConfigRun.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "kollective/core/Bytes.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/Config.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/ResultFiles.hpp"
#include "kollective/core/RuntimeInfo.hpp"
#include "kollective/core/Tables.hpp"
#include "kollective/drivers/Columns.hpp"
#include "kollective/core/TextInput.hpp"
#include "kollective/drivers/Runner.hpp"
#include "kollective/drivers/ConfigKeys.hpp"
#include "kollective/drivers/CampaignLog.hpp"
#include "kollective/drivers/ResultsDatabase.hpp"
#include "kollective/drivers/Stop.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {

/// What is at `path` (nothing: not_found); fails naming it where the file system cannot say.
std::filesystem::file_status status_of(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error && error != std::errc::no_such_file_or_directory) fail("cannot look at '", path, "': ", error.message());
  return status;
}

/// A run of the config, checked and ready to start.
struct PlannedRun {
  std::shared_ptr<const Job> job;
  std::string name;
  const Runner* runner = nullptr;
  std::vector<double> point_seconds;
  bool shared = false;
  std::vector<std::pair<std::string, std::string>> keys;  ///< its entry's scalars (the results database)
};

/// The run's name: given (a safe file name, unique) or <algorithm>_<k>.
std::string run_name(const ConfigNode& entry, const std::string& algorithm, std::size_t index,
                     const std::vector<PlannedRun>& earlier) {
  const std::string name = entry.get_string("name", algorithm + "_" + std::to_string(index + 1));
  const ConfigNode where = entry.has("name") ? entry.required("name") : entry;
  if (!is_safe_file_name(name)) {
    where.error("run name '" + name +
                "' is not allowed: it names the result files, so use letters, digits, '.', '_' and '-', starting "
                "with a letter or digit, at most 100 characters");
  }
  for (const auto& other : earlier) {
    if (other.name == name) where.error("duplicate run name '" + name + "'");
    for (const auto& [a, b] : {std::pair(other.name, name), std::pair(name, other.name)}) {
      if (result_names_may_collide(a, b)) {
        where.error("run names '" + a + "' and '" + b + "' can give two result files the same name ('" + a +
                    "' writes files named '" + a + "_...'): rename one");
      }
    }
  }
  return name;
}

/// Checks every run (config, inputs, sizes) before any starts.
std::vector<PlannedRun> plan_runs(const ConfigNode& config, const std::string& out_dir, const std::string& config_dir) {
  std::vector<PlannedRun> plan;
  const ConfigNode runs = config.required("runs");
  if (!runs.is_sequence()) runs.error("expected a list of runs");
  for (const auto& entry : runs.elements()) {
    entry.expect_map();
    const std::string algorithm = entry.required("algorithm").as_string();
    const Runner* runner = find_runner(algorithm);
    if (!runner) {
      std::string known;
      for (const auto& name : algorithm_names()) known += " " + name;
      entry.required("algorithm")
          .error("unknown algorithm '" + algorithm + "'" + did_you_mean(algorithm, algorithm_names()) +
                 " (available:" + known + ")");
    }
    const std::string name = run_name(entry, algorithm, plan.size(), plan);
    const RunContext context{out_dir, config_dir, name};
    with_context("run '" + name + "'", [&] {
      std::shared_ptr<const Job> job = runner->parse(entry, context);
      job->validate(context);
      plan.push_back({job, name, runner, job->point_seconds(), job->shares_solves(), entry.leaves()});
    });
  }
  if (plan.empty()) runs.error("no runs");
  return plan;
}

/// The config file's text, for check_same_config.
std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Fails on every rank unless every rank read the same config and was given the same options.
void check_same_config(const std::string& config_path, const std::string& text, const std::string& out_dir,
                       const RunFlags& flags) {
  const std::string signature = std::to_string(std::hash<std::string>{}(text)) + " " +
                                std::to_string(flags.keep_going) + std::to_string(flags.resume) +
                                std::to_string(flags.force_resume) + " " + out_dir;
  const std::vector<std::string> signatures = world().allgather(signature);
  for (int r = 1; r < world().size(); ++r) {
    if (signatures[r] != signatures[0]) {
      throw SharedError("rank " + std::to_string(r) + " read a different '" + Impl::printable(config_path) +
                        "' or was given other options (--out, --keep-going) than rank 0: every rank must run "
                        "the same config");
    }
  }
}

constexpr int all_ranks = -1;
constexpr int solved_before = -2;  ///< a point a resumed campaign found in the results database

/// Which rank runs each point of each run: all_ranks for shared runs; solved_before for the
/// points a resumed campaign has (`solved`, where given); the other points longest first onto the
/// least loaded rank (lowest rank on ties), so that a sweep whose sizes grow fast still balances.
std::vector<std::vector<int>> assign_points(const std::vector<PlannedRun>& plan, int ranks,
                                            const std::vector<std::set<std::size_t>>& solved) {
  struct Point {
    double seconds;
    std::size_t run, point;
  };
  std::vector<std::vector<int>> owner(plan.size());
  std::vector<Point> points;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    owner[i].assign(plan[i].point_seconds.size(), all_ranks);
    for (std::size_t k = 0; k < plan[i].point_seconds.size(); ++k) {
      if (i < solved.size() && solved[i].count(k)) {
        owner[i][k] = solved_before;
      } else if (!plan[i].shared) {
        points.push_back({plan[i].point_seconds[k], i, k});
      }
    }
  }
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.seconds > b.seconds; });
  std::vector<double> load(ranks, 0.0);
  for (const Point& point : points) {
    const int rank = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    owner[point.run][point.point] = rank;
    load[rank] += point.seconds;
  }
  return owner;
}

/// Rank 0's assignment on every rank (point costs come from estimates that can differ between
/// ranks, e.g. with their thread counts).
std::vector<std::vector<int>> shared_assignment(const std::vector<PlannedRun>& plan,
                                                const std::vector<std::set<std::size_t>>& solved = {}) {
  std::vector<std::vector<int>> owner = assign_points(plan, world().size(), solved);
  std::vector<std::int64_t> flat;
  for (const auto& run : owner) flat.insert(flat.end(), run.begin(), run.end());
  world().broadcast(flat, 0);
  std::size_t at = 0;
  for (auto& run : owner) {
    for (int& rank : run) rank = static_cast<int>(flat.at(at++));
  }
  return owner;
}

/// A point's parameters for the results database: its context cells (the input, sizes and
/// options as configured), as a JSON object; not the run, how often it was timed, its outcomes
/// (what `auto` chose), or what every row of the session shares (backend, device, ...).
std::string point_parameters(const std::vector<Row>& rows, const std::vector<FieldRule>& declared) {
  std::string json = "{";
  if (rows.empty()) return "{}";
  for (const auto& [name, cell] : rows.front().cells()) {
    const std::string& column = name;  // a lambda may not capture a structured binding (C++17)
    const auto rule =
        std::find_if(declared.begin(), declared.end(), [&](const FieldRule& r) { return r.name == column; });
    if (rule == declared.end() || !identifies_point(column, rule->kind)) continue;
    if (json.size() > 1) json += ", ";
    json += json_string(column) + ": " + to_json(cell);
  }
  return json + "}";
}

/// A solved point: its rows and when it ran (the results database keeps both).
struct SolvedPoint {
  std::size_t point = 0;
  std::vector<Row> rows;
  std::string started, ended;
};

/// What one rank did for one run; over ranks, a run's status is the highest of theirs.
struct RankRun {
  enum Status : std::uint8_t { completed, skipped, failed };
  Status status = completed;
  std::vector<SolvedPoint> points;       ///< rows of each point it ran
  std::unique_ptr<ResultFiles> files;    ///< the result files of its points
  std::unique_ptr<ResultFiles> discard;  ///< files of shared points, kept by rank 0 only
};

std::string encode(const std::vector<RankRun>& runs, std::size_t begin, std::size_t end) {
  ByteWriter out;
  for (std::size_t i = begin; i < end; ++i) {
    out.raw(runs[i].status);
    out.count(runs[i].points.size());
    for (const SolvedPoint& point : runs[i].points) {
      out.count(point.point);
      out.text(encode_rows(point.rows));
      out.text(point.started);
      out.text(point.ended);
    }
  }
  return out.bytes();
}

/// Decodes another rank's encode() of `count` runs (no files).
std::vector<RankRun> decode(const std::string& bytes, std::size_t count) {
  ByteReader in(bytes);
  std::vector<RankRun> runs(count);
  for (RankRun& run : runs) {
    run.status = in.raw<RankRun::Status>();
    run.points.resize(in.count());
    for (SolvedPoint& point : run.points) {
      point.point = in.raw<std::uint64_t>();
      point.rows = decode_rows(in.text());
      point.started = in.text();
      point.ended = in.text();
    }
  }
  if (!in.done()) fail("internal: trailing bytes in the runs of another rank");
  return runs;
}

/// The runs as the campaign log records them.
std::vector<LoggedRun> logged_runs(const std::vector<PlannedRun>& plan) {
  std::vector<LoggedRun> runs;
  for (const PlannedRun& planned : plan) {
    std::vector<FieldRule> columns = table_context();
    const std::vector<FieldRule>& declared = planned.runner->columns();
    columns.insert(columns.end(), declared.begin(), declared.end());
    runs.push_back({planned.name, planned.keys, std::move(columns)});
  }
  return runs;
}

class ConfigRunner {
 public:
  ConfigRunner(std::vector<PlannedRun> plan, std::string config_path, std::string out_dir, std::string config_dir,
               RunFlags flags, SessionContext session)
      : plan_(std::move(plan)),
        config_path_(std::move(config_path)),
        out_dir_(std::move(out_dir)),
        config_dir_(std::move(config_dir)),
        flags_(flags),
        keep_going_(flags.keep_going),
        owner_(shared_assignment(plan_)),
        mine_(plan_.size()),
        log_(out_dir_, std::move(session), logged_runs(plan_)) {}

  /// Runs this rank's points. Runs are finished (gathered, their files committed) with one rank
  /// after each run; with several before each shared run (every rank has then run
  /// all the points before it, and an error that ends every rank loses only that run) and at
  /// the end. Returns the exit status.
  int run() {
    if (flags_.resume) {
      skip_solved_points();
    } else {
      world().on_every_rank([&] {  // before any rank keeps a point's files
        log_.start_fresh();
        return 0;
      });
    }
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      if (plan_[i].shared) finish_until(i);
      run_points(i);
      if (world().size() == 1) finish_until(i + 1);
    }
    finish_until(plan_.size());
    const int status = report();
    log_.end(status == 0 ? "completed" : signal_ ? "stopped" : "failed", true);
    return status;
  }

 private:
  void run_points(std::size_t i) {
    bool ran = false;
    const PlannedRun& planned = plan_[i];
    RankRun& run = mine_[i];
    run.files = std::make_unique<ResultFiles>(out_dir_, &written_, pending_folder(out_dir_, planned.name));
    run.discard = std::make_unique<ResultFiles>(out_dir_);
    for (std::size_t k = 0; k < owner_[i].size(); ++k) {
      const bool shared = owner_[i][k] == all_ranks;
      if (!shared && owner_[i][k] != world().rank()) continue;
      if (stopped_ || stopping(shared)) {  // the same on every rank at a shared point (see finish_until)
        run.status = std::max(run.status, RankRun::skipped);
        continue;
      }
      ResultFiles* files = shared && world().rank() != 0 ? run.discard.get() : run.files.get();
      RunContext context{out_dir_, config_dir_, planned.name, files};
      Table table(planned.name);
      ran = true;
      try {
        const std::string started = ResultsDatabase::now();
        with_context("run '" + planned.name + "'", [&] { planned.job->run_point(k, context, table); });
        run.points.push_back({k, table.rows(), started, ResultsDatabase::now()});
        if (!shared || world().rank() == 0) {
          files->keep();  // before the point is recorded: a recorded point has its files
          record(i, run.points.back(), world().rank());
        }
      } catch (const SharedError& e) {  // every rank failed alike: no rank waits
        if (world().rank() == 0) std::cerr << "kollective: error: " << e.what() << "\n";
        fail_run(run);
      } catch (const std::exception& e) {
        const std::string message = Impl::error_message(e);
        if (shared && world().size() > 1) {  // the other ranks may wait in this point's collectives
          run.files.reset();
          run.discard.reset();
          abort_all("kollective: error: " + message);
        }
        std::cerr << "kollective: error: "
                  << (world().size() > 1 ? "rank " + std::to_string(world().rank()) + ": " : "") << message << "\n";
        fail_run(run);
      }
    }
    if (ran && world().rank() == 0) std::cout << "\n";
  }

  /// Whether a stop signal ends the campaign here: this rank's alone, or, before a point every
  /// rank shares, any rank's (every rank then agrees).
  bool stopping(bool collective) {
    std::vector<std::int64_t> caught{signal_ ? signal_ : stop_signal()};
    if (collective && world().size() > 1) world().allreduce_max(caught);  // every rank takes part
    signal_ = static_cast<int>(caught[0]);
    return signal_ != 0;
  }

  /// `--resume`: the points the results database holds are not solved again (rank 0 checks the
  /// folder and tells every rank), and the rest are dealt over the ranks again.
  void skip_solved_points() {
    std::vector<std::set<std::size_t>> solved;
    world().on_every_rank([&] {
      solved = log_.start_resumed(flags_.force_resume);
      return 0;
    });
    std::vector<std::int64_t> flat;
    for (std::size_t i = 0; i < solved.size(); ++i) {
      for (const std::size_t k : solved[i]) {
        flat.push_back(static_cast<std::int64_t>(i));
        flat.push_back(static_cast<std::int64_t>(k));
      }
    }
    world().broadcast(flat, 0);
    solved.assign(plan_.size(), {});
    for (std::size_t at = 0; at + 1 < flat.size(); at += 2) {
      solved.at(static_cast<std::size_t>(flat[at])).insert(static_cast<std::size_t>(flat[at + 1]));
    }
    owner_ = shared_assignment(plan_, solved);
  }

  /// Every rank takes the highest stop signal and a stop after a failure that any rank saw (a
  /// collective): whether the next shared point runs, and whether a stopped run keeps its
  /// finished points, must be decided alike everywhere.
  void agree_on_stopping() {
    std::vector<std::int64_t> state{signal_ ? signal_ : stop_signal(), stopped_ ? 1 : 0};
    if (world().size() > 1) world().allreduce_max(state);
    signal_ = static_cast<int>(state[0]);
    stopped_ = state[1] != 0 || signal_ != 0;
  }

  void fail_run(RankRun& run) {
    run.status = RankRun::failed;
    stopped_ = stopped_ || !keep_going_;
  }

  /// Gathers runs [finished_, end) from every rank and finishes them. Every rank learns every
  /// run's status, so after a failure (without keep_going) every rank stops alike.
  void finish_until(std::size_t end) {
    if (end <= finished_) return;
    const std::vector<std::string> encoded = world().allgather(encode(mine_, finished_, end));
    std::vector<std::vector<RankRun>> theirs(world().size());
    for (int r = 0; r < world().size(); ++r) {
      if (r != world().rank()) theirs[r] = decode(encoded[r], end - finished_);
    }
    agree_on_stopping();
    for (std::size_t i = finished_; i < end; ++i) {
      RankRun::Status status = mine_[i].status;
      for (int r = 0; r < world().size(); ++r) {
        if (r == world().rank()) continue;
        RankRun& other = theirs[r][i - finished_];
        status = std::max(status, other.status);
        for (SolvedPoint& point : other.points) {
          if (world().rank() == 0 && owner_[i][point.point] != all_ranks) {
            record(i, point, r);
            mine_[i].points.push_back(std::move(point));
          }
        }
      }
      finish(status, i);
      if (status_[i] == RankRun::failed && !keep_going_) stopped_ = true;
    }
    finished_ = end;
    agree_on_stopping();  // a run that failed on rank 0 alone (its table) stops every rank alike
  }

  /// Commits run i's files on every rank when it completed everywhere (rank 0 adds its table,
  /// rows in point order); otherwise its files go.
  /// A run stopped by a signal keeps its finished points likewise.
  void finish(RankRun::Status status, std::size_t i) {
    RankRun& run = mine_[i];
    status_.push_back(status);
    if (status == RankRun::completed || (status == RankRun::skipped && signal_)) {
      try {
        with_context("run '" + plan_[i].name + "'", [&] {
          if (world().rank() == 0) {
            const Table table = table_of(i);
            if (!table.rows().empty()) table.write(*run.files);
          }
          run.files->commit();
          // every rank kept its points' files before the gather that led here
          if (world().rank() == 0) commit_pending(pending_folder(out_dir_, plan_[i].name), out_dir_, &written_);
        });
      } catch (const Error& e) {
        std::cerr << "kollective: error: "
                  << (world().size() > 1 ? "rank " + std::to_string(world().rank()) + ": " : "") << e.what() << "\n";
        status_.back() = RankRun::failed;  // on this rank: its summary says so
      }
    }
    run.files.reset();
    run.discard.reset();
    run.points.clear();
  }

  /// Commits point `solved` of run i, solved by `rank`, to the results database.
  void record(std::size_t i, const SolvedPoint& solved, int rank) {
    StoredPoint stored;
    stored.run = plan_[i].name;
    stored.point = solved.point;
    stored.rank = rank;
    stored.parameters = point_parameters(solved.rows, plan_[i].runner->columns());
    stored.started = solved.started;
    stored.ended = solved.ended;
    const int ranks = owner_[i][solved.point] == all_ranks ? world().size() : 1;
    for (Row row : solved.rows) stored.rows.push_back(std::move(row.set("ranks", ranks)));
    log_.add(std::move(stored));
  }

  /// Run i's rows, in point order, with the ranks that solved each point: rank 0 reads them from
  /// the results database, which holds every rank's points, and those of earlier sessions a
  /// resumed campaign goes on from.
  Table table_of(std::size_t i) {
    Table table(plan_[i].name);
    for (StoredPoint& point : log_.points(i)) {
      if (point.point >= owner_[i].size()) continue;  // a sweep point the config no longer has
      finished_points_[i] += 1;
      for (Row& row : point.rows) table.add_complete(std::move(row));
    }
    require_declared(table, plan_[i].runner->columns());
    return table;
  }

  /// After a stop signal: what was done, what was not, and the command that goes on.
  int report_stop() const {
    if (world().rank() == 0) {
      std::string done, partly, not_run;
      for (std::size_t i = 0; i < plan_.size(); ++i) {
        const auto found = finished_points_.find(i);
        const std::size_t finished = found == finished_points_.end() ? 0 : found->second;
        const std::string name = plan_[i].name;
        const std::size_t points = owner_[i].size();
        std::string& list = i < status_.size() && status_[i] == RankRun::completed ? done
                            : finished > 0                                         ? partly
                                                                                   : not_run;
        list += (list.empty() ? "" : ", ") + name;
        if (&list == &partly) list += " (" + std::to_string(finished) + " of " + std::to_string(points) + " points)";
      }
      std::cerr << "kollective: stopped by " << signal_name(signal_) << "; every finished point is in " << out_dir_
                << "/results.sqlite and the tables\n"
                << "  completed: " << (done.empty() ? "none" : done) << "\n"
                << "  stopped:   " << (partly.empty() ? "none" : partly) << "\n"
                << "  not run:   " << (not_run.empty() ? "none" : not_run) << "\n"
                << "to go on:  kollective run " << config_path_ << " --out " << out_dir_ << " --resume\n";
    }
    return 128 + signal_;
  }

  int report() const {
    std::vector<std::string> completed, failed;
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      if (status_[i] == RankRun::completed) completed.push_back(plan_[i].name);
      if (status_[i] == RankRun::failed) failed.push_back(plan_[i].name);
    }
    if (signal_ && completed.size() < plan_.size()) return report_stop();
    if (failed.empty() && completed.size() == plan_.size()) {
      if (world().rank() == 0)
        std::cout << "tables written to " << out_dir_ << (out_dir_.back() == '/' ? "" : "/") << "\n";
      return 0;
    }
    if (world().rank() != 0) return 1;
    auto list = [](const std::vector<std::string>& names) {
      std::string text;
      for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
      return text;
    };
    const std::size_t not_started = plan_.size() - completed.size() - failed.size();
    std::cerr << "kollective: " << completed.size() << " of " << plan_.size() << " runs completed"
              << (completed.empty() ? "" : " (" + list(completed) + "), their tables are in " + out_dir_ + "/")
              << "; failed: " << list(failed);
    if (not_started) std::cerr << "; not started: " << not_started << " (--keep-going runs the rest)";
    std::cerr << "\n";
    return 1;
  }

  std::vector<PlannedRun> plan_;
  std::string config_path_, out_dir_, config_dir_;
  RunFlags flags_;
  bool keep_going_;
  std::vector<std::vector<int>> owner_;
  std::vector<RankRun> mine_;
  std::vector<RankRun::Status> status_;                 ///< of each finished run, over all ranks
  std::size_t finished_ = 0;                            ///< runs before it are finished
  std::set<std::string> written_;                       ///< files committed by earlier runs
  bool stopped_ = false;                                ///< a run failed and keep_going is off
  CampaignLog log_;                                     ///< every solved point, committed as it is solved
  int signal_ = 0;                                      ///< the stop signal every rank agreed on (0: none)
  std::map<std::size_t, std::size_t> finished_points_;  ///< rank 0: points in each run's table
};

/// A config read and checked on every rank: every run planned, the output folder settled.
struct CheckedConfig {
  ConfigNode config;
  std::string config_hash;
  std::vector<PlannedRun> plan;
  std::string out_dir, config_dir;
  RunFlags flags;
};

/// Every check `run` makes before its first run. `prepare`: create the output folder (else only
/// check that it could be made and written).
CheckedConfig check_config_file(const std::string& config_path, std::string out_dir, RunFlags flags, bool prepare) {
  const std::string text = world().on_every_rank([&] {
    check_input_file(config_path, "config");
    return read_text(config_path);
  });
  check_same_config(config_path, text, out_dir, flags);
  const ConfigNode config = world().on_every_rank([&] { return ConfigNode::load_file(config_path); });
  std::string config_dir;
  std::vector<PlannedRun> plan = world().on_every_rank([&] {
    config.expect_keys(keys_under("config", ""));
    if (config.has("title")) config.required("title").as_string();              // printed when it runs
    const std::string configured_out = config.get_string("output", "results");  // checked even when --out replaces it
    if (configured_out.empty()) config.required("output").error("the output folder is empty");
    if (out_dir.empty()) out_dir = configured_out;
    flags.keep_going = flags.keep_going || config.get_bool("keep_going", false);
    config_dir = std::filesystem::path(config_path).parent_path().string();
    std::vector<PlannedRun> runs = plan_runs(config, out_dir, config_dir);
    if (prepare) {
      prepare_output_folder(out_dir);
    } else if (world().rank() == 0) {  // it makes and removes the folders: ranks at once would race
      check_output_folder(out_dir);
    }
    const std::string database = ResultsDatabase::path_in(out_dir);  // an earlier campaign's, readable
    std::error_code error;  // an empty file (a reader's connection made it) is a new database
    if (world().rank() == 0 && std::filesystem::exists(database, error) &&
        std::filesystem::file_size(database, error) > 0)
      ResultsDatabase(database, ResultsDatabase::Access::read);
    const std::string pending = out_dir + "/results.pending";  // where finished points' files wait
    const auto pending_status = status_of(pending);
    if (std::filesystem::exists(pending_status) && !std::filesystem::is_directory(pending_status)) {
      fail("'", pending, "' is not a folder: kollective keeps the files of unfinished runs there; move it away");
    }
    return runs;
  });
  return {config, content_hash(text), std::move(plan), out_dir, config_dir, flags};
}

/// Holds an exclusive lock on the output folder until the process ends (rank 0): two runs writing
/// one folder would each solve every point and overwrite the other's tables.
void lock_output_folder(const std::string& out_dir) {
  const int folder = ::open(out_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder < 0) fail("cannot open the output folder '", out_dir, "' to lock it");
  if (::flock(folder, LOCK_EX | LOCK_NB) != 0) {
    ::close(folder);
    fail("another `kollective run` is writing ", out_dir,
         "/ (its lock is held): wait for it to end, or give another "
         "--out");
  }  // the descriptor stays open: the lock ends with the process
}

/// What the results database records of this `kollective run`.
SessionContext session_context(const std::string& config_path, const std::string& config_hash) {
  const RuntimeInfo& info = runtime_info();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::string started = world().allgather(ResultsDatabase::now())[0];  // rank 0's: one session's
  return {config_path,         config_hash, info.revision,  info.backend, info.device,
          info.kokkos_version, host,        world().size(), started};
}

}  // namespace

int run_config(const std::string& config_path, std::string out_dir, const RunFlags& flags) {
  if (flags.resume && !out_dir.empty() && !std::filesystem::exists(status_of(out_dir))) {  // before the folder is made
    fail("nothing to resume in ", out_dir, "/: it does not exist; run without --resume");
  }
  CheckedConfig checked = check_config_file(config_path, out_dir, flags, true);
  world().on_every_rank([&] {
    if (world().rank() == 0) lock_output_folder(checked.out_dir);
    return 0;
  });
  catch_stop_signals(world().rank() == 0);
  if (world().rank() == 0) {
    if (checked.config.has("title")) std::cout << Impl::printable(checked.config.required("title").as_string()) << "\n";
    std::cout << "backend " << runtime_info().backend << " on " << runtime_info().device;
    if (world().size() > 1) std::cout << ", " << world().size() << " ranks";
    std::cout << ", output in " << Impl::printable(checked.out_dir) << "\n\n" << std::flush;
  }
  return ConfigRunner(std::move(checked.plan), config_path, checked.out_dir, checked.config_dir, checked.flags,
                      session_context(config_path, checked.config_hash))
      .run();
}

int check_config(const std::string& config_path, std::string out_dir) {
  const CheckedConfig checked = check_config_file(config_path, out_dir, RunFlags{}, false);
  if (world().rank() == 0) {
    std::cout << config_path << ": " << checked.plan.size() << (checked.plan.size() == 1 ? " run" : " runs")
              << " checked, output in " << checked.out_dir << "\n";
    for (const PlannedRun& run : checked.plan) {
      std::cout << "  " << run.name << ": " << run.point_seconds.size()
                << (run.point_seconds.size() == 1 ? " point" : " points") << "\n";
    }
  }
  return 0;
}

}  // namespace kollective::driver
