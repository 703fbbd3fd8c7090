#ifndef KOLLECTIVE_DRIVERS_CAMPAIGN_LOG_HPP
#define KOLLECTIVE_DRIVERS_CAMPAIGN_LOG_HPP

/// \file CampaignLog.hpp
/// A `kollective run` as the results database sees it (ResultsDatabase.hpp): the session, each
/// solved point committed as it is solved, a fresh campaign forgetting the earlier points of its
/// runs, and `--resume` going on from the points the folder holds, after checking that the
/// config, revision and backend still give the same answers.

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kollective/drivers/ResultsDatabase.hpp"

namespace kollective::driver {

/// A run of the config as the log needs it: its name and its entry's scalars.
struct LoggedRun {
  std::string name;
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<FieldRule> columns;  ///< the columns its rows may hold, as declared
};

class CampaignLog {
 public:
  /// This rank's log of a campaign over `runs` in `out_dir`. Rank 0's database is
  /// `results.sqlite`, opened at its first point (a campaign that solves none leaves none);
  /// another rank's holds the points it solved alone until rank 0 has them.
  CampaignLog(std::string out_dir, SessionContext session, std::vector<LoggedRun> runs);
  ~CampaignLog();

  /// A fresh campaign: rank 0 takes the points of the other ranks' files of an earlier campaign
  /// (other runs' points stay), then forgets the earlier points of these runs and their pending
  /// files.
  void start_fresh();
  /// `--resume` (rank 0): takes in the points other ranks kept in their own files, checks that
  /// the revision, backend and every run's answer-changing keys are those its points were solved
  /// with (unless `force`), and returns each run's points already solved. Fails naming what
  /// changed, or when the folder holds no database.
  std::vector<std::set<std::size_t>> start_resumed(bool force);

  /// Commits a solved point.
  void add(StoredPoint point);
  /// Rank 0: the stored points of run `run`, in point order.
  std::vector<StoredPoint> points(std::size_t run);
  /// Ends the session with `status`; another rank's own file goes once rank 0 `holds_all`.
  void end(const std::string& status, bool holds_all);

 private:
  std::string path() const;
  ResultsDatabase& database();
  void merge_rank_files();
  void record_keys(bool missing_only);
  std::vector<std::set<std::size_t>> resumable_points(bool force);
  std::string out_dir_;
  SessionContext session_context_;
  std::vector<LoggedRun> runs_;
  bool resuming_ = false;
  std::unique_ptr<ResultsDatabase> database_;
  std::int64_t session_ = 0;
};

/// Where the result files of run `run`'s finished points wait until the run commits them
/// (ResultFiles::keep); a fresh campaign empties it.
std::string pending_folder(const std::string& out_dir, const std::string& run);

/// Keys whose change does not change a run's answers (how often and how carefully it is timed
/// and checked, and which extra files it writes): a resumed campaign may differ in them.
bool answer_neutral_key(const std::string& key);

}  // namespace kollective::driver

#endif
