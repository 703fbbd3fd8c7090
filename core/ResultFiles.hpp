#ifndef KOLLECTIVE_CORE_RESULTFILES_HPP
#define KOLLECTIVE_CORE_RESULTFILES_HPP

/// \file ResultFiles.hpp
/// The files one run writes into the output folder. Each is written under a hidden temporary
/// name. When a point is finished its files are kept: moved under their own names to a pending
/// folder (`results.pending/<run>/`), where they survive a crash or a kill. They enter the output
/// folder only when the caller commits: the driver commits when the whole run has completed, or,
/// after a stop signal, with its finished points (whose table then holds those points alone), so a
/// run that fails midway leaves nothing in the folder that looks like a result, and a resumed run
/// commits the files of the points solved before it resumed.

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kollective {

/// Names a run (and so its files) may have: letters, digits, '.', '_' and '-', starting with a
/// letter or digit, at most `max_length` characters. Such a name can never leave the output
/// folder. A run's files add suffixes to its name (`_n1000_rankings.csv`): they may have up to
/// `max_result_file_name` characters, which leaves room for the temporary name within the 255
/// bytes file systems allow.
constexpr std::size_t max_run_name = 100, max_result_file_name = 200;
bool is_safe_file_name(const std::string& name, std::size_t max_length = max_run_name);

/// True when run `longer`'s result files could have the names of run `shorter`'s extra files:
/// `longer` is `shorter`, '_' and a word that starts a result file suffix (a size tag such as
/// `n1000`, or ranking, rankings, paths, pairwise, beats, values, model, scores, pairs, certificate,
/// input), e.g.
/// runs `a` and `a_ranking` (`a_ranking.csv` is both). Found before the first run starts; the
/// words mirror the runners' file suffixes, and ResultFiles::path still refuses a file that an
/// earlier run wrote, should a runner add a suffix this list lacks.
bool result_names_may_collide(const std::string& shorter, const std::string& longer);

class ResultFiles {
 public:
  /// `written_earlier` (optional): the files that earlier runs of this config committed. Asking
  /// for one of them again fails (two runs' names can make the same file name, e.g. run `a`'s
  /// `a_ranking.csv` and run `a_ranking`'s table) rather than replacing another run's result.
  /// `pending` (optional): where keep() moves the files of finished points.
  explicit ResultFiles(std::string folder, std::set<std::string>* written_earlier = nullptr, std::string pending = "");
  ResultFiles(const ResultFiles&) = delete;
  ResultFiles& operator=(const ResultFiles&) = delete;
  /// Removes every file not committed.
  ~ResultFiles();

  /// Where to write `file_name` (a safe name) now: a temporary path in the folder.
  std::string path(const std::string& file_name);
  /// Writes `content` to `file_name` (temporarily, like path()).
  void write(const std::string& file_name, const std::string& content);
  /// Moves every file written so far, under its own name, to the pending folder.
  void keep();
  /// Renames every file not kept to its final name; fails naming the file that could not be
  /// renamed. The kept ones enter the folder by commit_pending().
  void commit();

 private:
  std::string folder_;
  std::set<std::string>* written_earlier_;
  std::string pending_;
  std::vector<std::pair<std::string, std::string>> files_;  ///< (final, temporary) paths
  std::set<std::string> kept_;                              ///< final paths of kept files
  bool committed_ = false;
};

/// Moves every file in `pending` (a ResultFiles' pending folder, which may not exist) to
/// `folder` under its own name, adds it to `written` (optional) and removes the emptied pending
/// folder and, when it is empty too, its parent.
void commit_pending(const std::string& pending, const std::string& folder, std::set<std::string>* written = nullptr);

/// Removes the temporary files (`.<name>.partial-<host>-<pid>`) in `folder` whose name starts
/// with one of `prefixes`: what a process killed while writing them left there.
void remove_partial_files(const std::string& folder, const std::vector<std::string>& prefixes);

/// Creates `folder` (and parents) and checks that a file can be written in it; fails with the
/// reason (not a folder, permission denied, read-only, ...).
void prepare_output_folder(const std::string& folder);

/// Fails as prepare_output_folder would, and leaves nothing behind: the folders it made to try
/// are removed again.
void check_output_folder(const std::string& folder);

}  // namespace kollective

#endif
