#ifndef KOLLECTIVE_TESTS_FUZZ_FUZZINPUT_HPP
#define KOLLECTIVE_TESTS_FUZZ_FUZZINPUT_HPP

/// \file FuzzInput.hpp
/// Shared pieces of the libFuzzer targets: the input as a temporary file for readers that take a
/// path, the expected-outcome rule (kollective::Error is the answer to bad input; any other
/// exception escapes and is reported by libFuzzer as a crash) and invariant checks on results.

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "kollective/core/Error.hpp"

namespace kollective::fuzz {

/// Where inputs are written: $TMPDIR, else /dev/shm (no disk traffic), else /tmp.
inline std::filesystem::path input_dir() {
  if (const char* dir = std::getenv("TMPDIR"); dir && *dir) return dir;
  std::error_code ec;
  return std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm" : "/tmp";
}

/// The targets model a host with 256 MiB free (fast inputs), so the readers' own memory checks
/// (require_host_memory) refuse inputs that need more, below libFuzzer's -rss_limit_mb=2048; an
/// allocation past it that no check refused is a finding. A KOLLECTIVE_MEMORY_LIMIT set by the
/// caller wins.
inline const bool memory_limit_set = setenv("KOLLECTIVE_MEMORY_LIMIT", "268435456", 0) == 0;

constexpr const char* input_prefix = "kollective-fuzz-";

/// Removes inputs left by fuzz processes that died mid-input (a crash skips the destructor).
inline void remove_stale_inputs(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(input_prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + std::char_traits<char>::length(input_prefix), nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove(entry.path(), ec);
  }
}

/// The fuzz input as a file "<dir>/kollective-fuzz-<pid><suffix>", removed when this goes out of scope.
class TempInput {
 public:
  TempInput(const std::uint8_t* data, std::size_t size, const std::string& suffix) {
    static const std::filesystem::path dir = [] {
      auto found = input_dir();
      remove_stale_inputs(found);
      return found;
    }();
    path_ = (dir / (input_prefix + std::to_string(getpid()) + suffix)).string();
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out.flush()) {
      std::fprintf(stderr, "fuzz: cannot write %s\n", path_.c_str());
      std::abort();
    }
  }
  ~TempInput() { std::remove(path_.c_str()); }
  TempInput(const TempInput&) = delete;
  TempInput& operator=(const TempInput&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Runs a reader: a kollective::Error is the expected answer to bad input; returns whether it
/// succeeded. Every other exception propagates (libFuzzer reports it as a crash, with the
/// throwing frame on the stack).
template <class F>
bool refuses_or_reads(F&& read) {
  try {
    read();
    return true;
  } catch (const kollective::Error&) {
    return false;
  }
}

/// A reader's result broke an invariant it promises: a finding.
[[noreturn]] inline void broken(const char* what) {
  std::fprintf(stderr, "fuzz: invariant broken: %s\n", what);
  std::abort();
}

inline void check(bool condition, const char* what) {
  if (!condition) broken(what);
}

}  // namespace kollective::fuzz

#endif
