#include "kollective/core/ResultFiles.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "kollective/core/Error.hpp"

namespace kollective {

namespace {
/// Names a temporary file: `.<name>.partial-<host>-<pid>`.
constexpr const char* partial_marker = ".partial-";
}  // namespace

bool is_safe_file_name(const std::string& name, std::size_t max_length) {
  if (name.empty() || name.size() > max_length) return false;
  auto is_alphanumeric = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (!is_alphanumeric(name[0])) return false;
  for (char c : name) {
    if (!is_alphanumeric(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

bool result_names_may_collide(const std::string& shorter, const std::string& longer) {
  if (longer.size() <= shorter.size() + 1 || longer.compare(0, shorter.size(), shorter) != 0 ||
      longer[shorter.size()] != '_') {
    return false;
  }
  const std::string rest = longer.substr(shorter.size() + 1);
  const std::string word = rest.substr(0, rest.find_first_of("_."));
  // Per-size files of a sweep start with n<size> (`_n1000_m5_rankings.csv`, `_n4096_v100_ranking.csv`).
  const bool size_tag =
      word.size() > 1 && word[0] == 'n' && word.find_first_not_of("0123456789", 1) == std::string::npos;
  for (const char* suffix : {"ranking", "rankings", "paths", "pairwise", "beats", "values", "model", "scores", "pairs",
                             "certificate", "input"}) {
    if (word == suffix) return true;
  }
  return size_tag;
}

ResultFiles::ResultFiles(std::string folder, std::set<std::string>* written_earlier, std::string pending)
    : folder_(std::move(folder)), written_earlier_(written_earlier), pending_(std::move(pending)) {}

ResultFiles::~ResultFiles() {
  if (committed_) return;
  for (const auto& file : files_) std::remove(file.second.c_str());
}

std::string ResultFiles::path(const std::string& file_name) {
  if (!is_safe_file_name(file_name, max_result_file_name)) fail("internal: unsafe result file name '", file_name, "'");
  const std::string final_path = folder_ + "/" + file_name;
  for (const auto& file : files_) {
    if (file.first == final_path) return file.second;
  }
  if (kept_.count(final_path)) fail("internal: two points of one run wrote '", final_path, "'");
  if (written_earlier_ && written_earlier_->count(final_path)) {
    fail("the result file '", final_path,
         "' was already written by an earlier run of this config; rename one of the two runs");
  }
  // Hidden, and named by the host and the process, so that parallel runs and the ranks of one run
  // (on nodes sharing a file system, whose process ids can repeat) do not collide.
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  const std::string temporary = folder_ + "/." + file_name + partial_marker + host + "-" + std::to_string(::getpid());
  files_.emplace_back(final_path, temporary);
  return temporary;
}

void ResultFiles::write(const std::string& file_name, const std::string& content) {
  const std::string temporary = path(file_name);
  std::ofstream out(temporary, std::ios::binary);
  if (!out) fail("cannot write '", folder_, "/", file_name, "': ", std::strerror(errno));
  out << content;
  out.close();
  if (!out) fail("error while writing '", folder_, "/", file_name, "' (disk full?)");
}

namespace {

/// Renames each (temporary, final) pair, after checking that no folder has a final name (one
/// would stop the renames halfway); adds each final path to `written` (optional).
void rename_all(const std::vector<std::pair<std::string, std::string>>& moves, std::set<std::string>* written) {
  for (const auto& move : moves) {
    std::error_code error;
    if (std::filesystem::is_directory(move.second, error))
      fail("cannot write '", move.second, "': a folder has that name");
  }
  for (const auto& [from, to] : moves) {
    if (std::rename(from.c_str(), to.c_str()) != 0) fail("cannot write '", to, "': ", std::strerror(errno));
    if (written) written->insert(to);
  }
}

}  // namespace

void ResultFiles::keep() {
  if (files_.empty()) return;
  if (pending_.empty()) fail("internal: result files kept without a pending folder");
  std::error_code error;
  std::filesystem::create_directories(pending_, error);
  if (error) fail("cannot create '", pending_, "': ", error.message());
  std::vector<std::pair<std::string, std::string>> moves;
  for (const auto& [final_path, temporary] : files_) {
    moves.emplace_back(temporary, pending_ + "/" + std::filesystem::path(final_path).filename().string());
    kept_.insert(final_path);
  }
  rename_all(moves, nullptr);
  files_.clear();
}

void ResultFiles::commit() {
  std::vector<std::pair<std::string, std::string>> moves;
  for (const auto& [final_path, temporary] : files_) moves.emplace_back(temporary, final_path);
  rename_all(moves, written_earlier_);
  committed_ = true;
}

void remove_partial_files(const std::string& folder, const std::vector<std::string>& prefixes) {
  std::error_code error;
  for (std::filesystem::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name[0] != '.' || name.find(partial_marker) == std::string::npos) continue;
    for (const std::string& prefix : prefixes) {
      if (name.compare(1, prefix.size(), prefix) == 0) {
        std::filesystem::remove(entry->path(), error);
        break;
      }
    }
  }
}

void commit_pending(const std::string& pending, const std::string& folder, std::set<std::string>* written) {
  std::error_code error;
  if (!std::filesystem::is_directory(pending, error)) return;
  std::vector<std::pair<std::string, std::string>> moves;
  for (std::filesystem::directory_iterator entry(pending, error), end; !error && entry != end; entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name[0] != '.') moves.emplace_back(entry->path().string(), folder + "/" + name);
  }
  if (error) fail("cannot read '", pending, "': ", error.message());
  std::sort(moves.begin(), moves.end());
  rename_all(moves, written);
  std::filesystem::remove(pending, error);  // fails harmlessly while something else is left in it
  std::filesystem::remove(std::filesystem::path(pending).parent_path(), error);
}

namespace {

void check_output_folder_name(const std::string& folder) {
  if (folder.find('\0') != std::string::npos) fail("output folder '", folder.c_str(), "...' contains a NUL byte");
  for (const auto& name : std::filesystem::path(folder)) {  // refused before anything is created
    if (name.string().size() > 255)
      fail("cannot create output folder '", folder, "': a name in it is longer than 255 bytes");
  }
}

}  // namespace

void check_output_folder(const std::string& folder) {
  namespace fs = std::filesystem;
  check_output_folder_name(folder);
  std::error_code error;
  std::vector<fs::path> missing;  // the folders prepare_output_folder would make, deepest first
  for (fs::path p = fs::absolute(folder, error); !error && !fs::exists(p, error) && p != p.parent_path();
       p = p.parent_path())
    missing.push_back(p);
  try {
    prepare_output_folder(folder);
  } catch (...) {
    for (const fs::path& made : missing) fs::remove(made, error);  // only empty folders go
    throw;
  }
  for (const fs::path& made : missing) fs::remove(made, error);
}

void prepare_output_folder(const std::string& folder) {
  namespace fs = std::filesystem;
  check_output_folder_name(folder);
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) fail("cannot create output folder '", folder, "': ", error.message());
  if (!fs::is_directory(folder, error)) fail("output folder '", folder, "' is not a folder");
  const std::string probe = folder + "/.kollective-write-test-" + std::to_string(::getpid());
  std::ofstream out(probe);
  const int reason = errno;
  if (!out) fail("cannot write in output folder '", folder, "': ", std::strerror(reason));
  out.close();
  std::remove(probe.c_str());
}

}  // namespace kollective
