#ifndef KOLLECTIVE_DRIVERS_CONFIGKEYS_HPP
#define KOLLECTIVE_DRIVERS_CONFIGKEYS_HPP

/// \file ConfigKeys.hpp
/// Every key a config may hold, with its type, default, range and meaning: the parsers take the
/// keys they accept from this table (keys_under), and `kollective help config` and
/// docs/config-reference.md are written from it (config_reference), so the three cannot differ.
/// The algorithms' `options:` rows are made from their declared fields (core/OptionFields.hpp).

#include <string>
#include <vector>

namespace kollective::driver {

struct ConfigKey {
  std::string section;                         ///< "config", "run", "election input", or an algorithm's name
  std::string path;                            ///< within the section: "options.method"
  std::string type;                            ///< text, integer, number, true/false, choice, file, list, map
  std::string fallback;                        ///< the default when left out ("" : required, or none)
  std::string range;                           ///< the values allowed
  std::string meaning;                         ///< what it does
  std::string algorithms;                      ///< for run and input keys: the algorithms that take it ("": all)
  std::vector<std::string> former_names = {};  ///< accepted with a warning (CHANGELOG.md)
};

/// The whole table, in the order the reference shows it.
const std::vector<ConfigKey>& config_keys();

/// The keys directly under `parent` ("" : the section's top level, "options", "input.generator")
/// that `algorithm` accepts in `section`: what expect_keys allows there.
std::vector<std::string> keys_under(const std::string& section, const std::string& parent,
                                    const std::string& algorithm = "");
/// The former names of those keys, accepted there with a warning.
std::vector<std::string> former_keys_under(const std::string& section, const std::string& parent);

/// A run entry's key as `algorithm` takes it today: `path` (a key path such as
/// "options.values" or "sweep.agents[2]") with a former name replaced by the current one.
std::string current_key_path(const std::string& algorithm, const std::string& path);
/// The default of a run entry's key for `algorithm` ("" where it has none or is unknown).
std::string key_default(const std::string& algorithm, const std::string& path);

/// The reference of every key as Markdown: `kollective help config` prints it, and
/// docs/config-reference.md holds it (a test keeps the two equal).
std::string config_reference();

}  // namespace kollective::driver

#endif
