#ifndef KOLLECTIVE_CORE_RESULTFILES_HPP
#define KOLLECTIVE_CORE_RESULTFILES_HPP

/// \file ResultFiles.hpp
/// The files one run writes into the output folder. Each is written under a hidden temporary
/// name and renamed to its own name only when the whole run has completed, so a run that fails
/// or is stopped midway leaves nothing that looks like a result.

#include <string>
#include <utility>
#include <vector>

namespace kollective {

/// Names a run (and so its files) may have: letters, digits, '.', '_' and '-', starting with a
/// letter or digit, at most 100 characters. Such a name can never leave the output folder.
bool is_safe_file_name(const std::string& name);

class ResultFiles {
 public:
  explicit ResultFiles(std::string folder);
  ResultFiles(const ResultFiles&) = delete;
  ResultFiles& operator=(const ResultFiles&) = delete;
  /// Removes every file not committed.
  ~ResultFiles();

  /// Where to write `file_name` (a safe name) now: a temporary path in the folder.
  std::string path(const std::string& file_name);
  /// Writes `content` to `file_name` (temporarily, like path()).
  void write(const std::string& file_name, const std::string& content);
  /// Renames every file to its final name; fails naming the file that could not be renamed.
  void commit();
  /// The final paths of the files committed, in the order they were first asked for.
  std::vector<std::string> committed() const;

 private:
  std::string folder_;
  std::vector<std::pair<std::string, std::string>> files_;  ///< (final, temporary) paths
  bool committed_ = false;
};

/// Creates `folder` (and parents) and checks that a file can be written in it; fails with the
/// reason (not a folder, permission denied, read-only, ...).
void prepare_output_folder(const std::string& folder);

}  // namespace kollective

#endif
