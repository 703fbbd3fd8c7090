#include "kollective/drivers/CampaignLog.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "kollective/core/Error.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/ResultFiles.hpp"
#include "kollective/drivers/ConfigKeys.hpp"
#include "kollective/drivers/Reporting.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {
/// The other ranks' own files in `folder` (results.rank<R>.sqlite).
std::vector<std::filesystem::path> rank_files(const std::string& folder) {
  const std::regex rank_file(R"(results\.rank[0-9]+\.sqlite)");
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (std::regex_match(entry.path().filename().string(), rank_file)) files.push_back(entry.path());
  }
  return files;
}
}  // namespace

bool answer_neutral_key(const std::string& key) {
  for (const char* neutral : {"name", "repetitions", "warmup", "verify", "max_seconds"}) {
    if (key == neutral) return true;
  }
  return key.rfind("write.", 0) == 0 || key == "write";
}

CampaignLog::CampaignLog(std::string out_dir, SessionContext session, std::vector<LoggedRun> runs)
    : out_dir_(std::move(out_dir)), session_context_(std::move(session)), runs_(std::move(runs)) {}

CampaignLog::~CampaignLog() = default;

std::string CampaignLog::path() const { return ResultsDatabase::path_in(out_dir_, world().rank()); }

ResultsDatabase& CampaignLog::database() {
  if (!database_) {
    database_ = std::make_unique<ResultsDatabase>(path());
    if (world().rank() == 0) database_->mark_interrupted();  // rank 0 holds the folder's lock
    session_ = database_->begin_session(session_context_);
    for (const LoggedRun& run : runs_) database_->describe_columns(run.columns);
    // What each run was configured with, beside its points (rank 0 of a resumed campaign
    // compares first, then records the runs it lacks).
    if (world().rank() != 0 || !resuming_) record_keys(false);
  }
  return *database_;
}

void CampaignLog::record_keys(bool missing_only) {
  for (const LoggedRun& run : runs_) {
    if (!missing_only || database_->run_keys(run.name).empty()) database_->set_run_keys(run.name, run.keys);
  }
}

std::string pending_folder(const std::string& out_dir, const std::string& run) {
  return out_dir + "/results.pending/" + run;
}

namespace {

/// The runs' names: the prefixes of their temporary files (remove_partial_files).
std::vector<std::string> run_names(const std::vector<LoggedRun>& runs) {
  std::vector<std::string> names;
  for (const LoggedRun& run : runs) names.push_back(run.name);
  return names;
}

}  // namespace

void CampaignLog::start_fresh() {
  if (world().rank() != 0) return;  // rank 0 takes in this rank's earlier file (below)
  merge_rank_files();               // an interrupted campaign's points on other ranks: other runs' are kept
  for (const LoggedRun& run : runs_) {
    std::error_code error;
    std::filesystem::remove_all(pending_folder(out_dir_, run.name), error);
    if (error) fail("cannot remove '", pending_folder(out_dir_, run.name), "': ", error.message());
  }
  std::error_code error;
  std::filesystem::remove(out_dir_ + "/results.pending", error);  // when empty
  remove_partial_files(out_dir_, run_names(runs_));
  for (const LoggedRun& run : runs_) {  // an earlier campaign's tables would outlive a stop
    for (const char* table : {".md", ".csv", ".json"})
      std::filesystem::remove(out_dir_ + "/" + run.name + table, error);
  }
  if (!std::filesystem::exists(path())) return;
  for (const LoggedRun& run : runs_) database().clear_run(run.name);
  record_keys(false);  // this campaign's
}

namespace {

/// The session of `into` that is `session` on another rank (the ranks of one `kollective run`
/// share its start time), or a new one ("interrupted" where it was still running).
std::int64_t same_session(ResultsDatabase& into, const StoredSession& session) {
  const SessionContext& context = session.context;
  for (const StoredSession& known : into.sessions()) {
    if (known.context.started == context.started && known.context.config_hash == context.config_hash &&
        known.context.ranks == context.ranks)
      return known.id;
  }
  const std::int64_t id = into.begin_session(context);
  into.end_session(id, session.status == "running" ? "interrupted" : session.status);
  return id;
}

}  // namespace

void CampaignLog::merge_rank_files() {
  const auto files = rank_files(out_dir_);
  if (files.empty()) return;
  std::optional<ResultsDatabase> opened;  // before this session begins: the merged ones come first
  ResultsDatabase& into = database_ ? *database_ : opened.emplace(path());
  for (const auto& file : files) {
    {
      ResultsDatabase other(file.string());
      std::map<std::int64_t, std::int64_t> sessions;  // theirs -> ours
      for (const StoredSession& session : other.sessions()) sessions[session.id] = same_session(into, session);
      const std::vector<StoredPoint> points = other.all_points();
      std::set<std::string> runs;  // every run it holds points of, this campaign's or another's
      for (const StoredPoint& point : points) runs.insert(point.run);
      for (const LoggedRun& run : runs_) runs.insert(run.name);
      for (const std::string& run : runs) {  // the keys its points were solved with, where rank 0 has none
        const auto keys = other.run_keys(run);
        if (!keys.empty() && into.run_keys(run).empty()) into.set_run_keys(run, keys);
      }
      for (StoredPoint point : points) {
        point.session = sessions[point.session];
        into.add_point(point);
      }
    }
    ResultsDatabase::remove(file.string());
  }
}

namespace {

/// A run entry's scalars by today's key names (a renamed key compares with its new name).
std::map<std::string, std::string> current_keys(const std::vector<std::pair<std::string, std::string>>& keys) {
  std::string algorithm;
  for (const auto& [key, value] : keys) {
    if (key == "algorithm") algorithm = value;
  }
  std::map<std::string, std::string> current;
  for (const auto& [key, value] : keys) current[current_key_path(algorithm, key)] = value;
  return current;
}

/// Whether two values of a key mean the same: the same text, or the same number (0.8 and 0.80).
bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const auto x = parse_decimal(a), y = parse_decimal(b);
  return x && y && *x == *y;
}

}  // namespace

/// The first answer-changing difference between a run's stored keys and its keys now, as
/// "'key' is X here, Y when ..." ("" when none). Keys compare by today's names, numbers by value,
/// and a key left out as its default.
std::string changed_key(const std::vector<std::pair<std::string, std::string>>& stored,
                        const std::vector<std::pair<std::string, std::string>>& now) {
  const std::map<std::string, std::string> before = current_keys(stored), after = current_keys(now);
  const std::string algorithm = after.count("algorithm") ? after.at("algorithm") : "";
  auto value = [&](const std::map<std::string, std::string>& keys, const std::string& key) {
    const auto found = keys.find(key);
    return found != keys.end() ? std::optional<std::string>(found->second) : std::nullopt;
  };
  auto shown = [](const std::optional<std::string>& given) { return given ? "'" + *given + "'" : "absent"; };
  for (const auto* keys : {&after, &before}) {
    for (const auto& entry : *keys) {
      const std::string& key = entry.first;
      if (answer_neutral_key(key)) continue;
      const auto here = value(after, key), then = value(before, key);
      const std::string fallback = key_default(algorithm, key);
      const std::string a = here ? *here : fallback, b = then ? *then : fallback;
      if ((here || !fallback.empty()) && (then || !fallback.empty()) && same_value(a, b)) continue;
      return "'" + key + "' is " + shown(here) + " here, " + shown(then) + " when its stored points were solved";
    }
  }
  return "";
}

std::vector<std::set<std::size_t>> CampaignLog::start_resumed(bool force) {
  if (world().rank() != 0) return std::vector<std::set<std::size_t>>(runs_.size());
  resuming_ = true;
  remove_partial_files(out_dir_, run_names(runs_));
  try {
    return resumable_points(force);
  } catch (...) {
    if (database_) database_->end_session(session_, "refused");  // the folder's points stay as they were
    throw;
  }
}

std::vector<std::set<std::size_t>> CampaignLog::resumable_points(bool force) {
  std::vector<std::set<std::size_t>> done(runs_.size());
  if (!std::filesystem::exists(path()) && rank_files(out_dir_).empty()) {  // a killed rank 0 may have none
    fail("nothing to resume in ", out_dir_, "/: it holds no results database (results.sqlite); run without --resume");
  }
  merge_rank_files();
  const char* again =
      " (use another --out for a fresh campaign, or --force-resume to solve such runs again and keep the rest)";
  std::set<std::int64_t> solving;  // the sessions that solved the points kept
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    const std::vector<StoredPoint> points = database().points(runs_[i].name);
    const auto stored = database().run_keys(runs_[i].name);
    if (points.empty()) continue;
    const std::string change = stored.empty() ? "" : changed_key(stored, runs_[i].keys);
    if (!change.empty() && force) {  // a point's index may now name another point: none is kept
      warn("run '" + runs_[i].name + "': " + change + ": its " + std::to_string(points.size()) +
           " stored points are solved again");
      database().clear_run(runs_[i].name);
      database().set_run_keys(runs_[i].name, runs_[i].keys);
      std::error_code error;
      std::filesystem::remove_all(pending_folder(out_dir_, runs_[i].name), error);  // their files
      continue;
    }
    for (const StoredPoint& point : points) {
      done[i].insert(point.point);
      solving.insert(point.session);
    }
    if (force) continue;
    if (stored.empty()) {
      fail("resuming run '", runs_[i].name, "': its stored points have no recorded config to compare with", again);
    }
    if (!change.empty()) fail("resuming run '", runs_[i].name, "': ", change, ": its answers could differ", again);
  }
  for (const StoredSession& earlier : database().sessions()) {
    const SessionContext& then = earlier.context;
    if (force || !solving.count(earlier.id)) continue;
    if (then.revision != session_context_.revision || then.backend != session_context_.backend) {
      fail("resuming ", out_dir_, "/: its points were solved by revision ", then.revision, " on ", then.backend,
           ", this is revision ", session_context_.revision, " on ", session_context_.backend, again);
    }
  }
  record_keys(true);  // runs new to the campaign
  return done;
}

void CampaignLog::add(StoredPoint point) {
  database();  // opened, its session begun
  point.session = session_;
  database().add_point(point);
}

std::vector<StoredPoint> CampaignLog::points(std::size_t run) {
  if (!database_ && !std::filesystem::exists(path())) return {};
  return database().points(runs_[run].name);
}

void CampaignLog::end(const std::string& status, bool holds_all) {
  if (!database_) return;
  database_->end_session(session_, status);
  if (world().rank() != 0 && holds_all) {
    database_.reset();
    ResultsDatabase::remove(path());
  }
}

}  // namespace kollective::driver
