#ifndef KOLLECTIVE_CORE_CONFIG_HPP
#define KOLLECTIVE_CORE_CONFIG_HPP

/// \file Config.hpp
/// YAML configs read into typed values on the host. Every error names the file, the line and
/// the key; unknown keys are errors (a typo must not silently fall back to a default).
/// yaml-cpp stays inside Config.cpp: this header does not include it.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/Parse.hpp"  // did_you_mean

namespace YAML {
class Node;
}

namespace kollective {

class ConfigNode {
 public:
  /// Parses a YAML file (syntax errors cite file:line).
  static ConfigNode load_file(const std::string& path);
  /// Parses YAML text; `origin` names it in messages.
  static ConfigNode load_string(std::string text, const std::string& origin);

  ConfigNode(YAML::Node node, std::string file, std::string key_path);

  bool is_map() const;
  bool is_sequence() const;
  bool is_scalar() const;
  bool has(const std::string& key) const;
  const std::string& file() const { return file_; }
  const std::string& key_path() const { return key_path_; }
  long line() const;  ///< 1-based line of this node

  /// The child at `key`; fails if absent.
  ConfigNode required(const std::string& key) const;
  /// Children of a sequence; fails for anything else (one value is written `[value]`).
  std::vector<ConfigNode> elements() const;
  /// Fails, citing the offending key's line, if the map has a key outside `allowed`, a key that
  /// is not a plain word, or a key without a value (`key:` alone, `key: ~`).
  /// Keys in `former` (renamed ones, read with a warning) are accepted too, without being listed.
  void expect_keys(std::initializer_list<const char*> allowed) const;
  void expect_keys(const std::vector<std::string>& allowed, const std::vector<std::string>& former = {}) const;
  /// Fails unless this node is a map.
  void expect_map() const;

  std::string as_string() const;
  std::int64_t as_int() const;
  double as_double() const;
  bool as_bool() const;
  /// One of `choices`; the message lists them.
  std::string as_choice(std::initializer_list<const char*> choices) const;
  std::string as_choice(const std::vector<std::string>& choices) const;

  std::string get_string(const std::string& key, const std::string& fallback) const;
  std::int64_t get_int(const std::string& key, std::int64_t fallback) const;
  double get_double(const std::string& key, double fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;
  /// Integer in [low, high]; fails naming the bounds.
  std::int64_t get_int_in(const std::string& key, std::int64_t fallback, std::int64_t low, std::int64_t high) const;
  /// A list of distinct integers (a value given twice is refused at its place).
  std::vector<std::int64_t> get_int_list(const std::string& key, std::vector<std::int64_t> fallback) const;

  /// Every scalar under this node with its path below it ("options.method", "agents[2]"), in
  /// the file's order: what a run was configured with, to compare with a later config.
  std::vector<std::pair<std::string, std::string>> leaves() const;

  /// Fails with "file:line: key: message".
  [[noreturn]] void error(const std::string& message) const;

 private:
  std::shared_ptr<const YAML::Node> node_;  ///< shared: copies of a ConfigNode are cheap
  std::string file_;
  std::string key_path_;
};

}  // namespace kollective

#endif
