#ifndef KOLLECTIVE_DRIVERS_OPTIONREADER_HPP
#define KOLLECTIVE_DRIVERS_OPTIONREADER_HPP

/// \file OptionReader.hpp
/// A run's `options:` read through an algorithm's declared fields (core/OptionFields.hpp): each
/// value by its field's kind and range, a former name with a warning naming the new one, and a
/// problem reported at the key's line. No runner spells an option's name, choices or default.

#include <optional>
#include <string>
#include <vector>

#include "kollective/core/Config.hpp"
#include "kollective/core/OptionFields.hpp"

namespace kollective::driver {

/// The value of `node` as `rule` reads it; fails at the node's line when it has the wrong kind.
OptionValue read_value(const ConfigNode& node, const OptionRule& rule);

/// Reads `node` for `rule` from `map` under `key` (its name or a former one): warns for a former
/// name, and fails when the map gives both names.
ConfigNode option_node(const ConfigNode& map, const OptionRule& rule, const std::string& key);

/// Warns of `problem` at the key it names (by its name or a former one), else at the map.
void warn_option(const ConfigNode& map, const std::vector<OptionRule>& rules, const OptionProblem& problem);

/// Fails at the key that `problem` names (by its name or a former one), else at the map.
[[noreturn]] void fail_option(const ConfigNode& map, const std::vector<OptionRule>& rules,
                              const OptionProblem& problem);

/// Sets every field of `options` that `map` gives, refusing a value outside its field's range.
template <class Options>
void read_fields(const ConfigNode& map, const OptionFields<Options>& fields, Options& options) {
  for (const auto& field : fields) {
    std::vector<std::string> keys = field.former_names;
    keys.insert(keys.begin(), field.name);
    for (const std::string& key : keys) {
      if (!map.has(key)) continue;
      const ConfigNode node = option_node(map, field, key);
      if (const auto problem = set_option(options, field, read_value(node, field))) node.error(problem->problem);
    }
  }
}

/// The former names of `fields`: keys a map accepts beside the current ones.
template <class Options>
std::vector<std::string> former_names(const OptionFields<Options>& fields) {
  std::vector<std::string> names;
  for (const auto& field : fields) names.insert(names.end(), field.former_names.begin(), field.former_names.end());
  return names;
}

/// Fails at the key `problem` names, when there is one (an algorithm's check after read_fields).
template <class Options>
void refuse(const ConfigNode& map, const OptionFields<Options>& fields, const std::optional<OptionProblem>& problem) {
  if (problem) fail_option(map, std::vector<OptionRule>(fields.begin(), fields.end()), *problem);
}

/// Warns at each key `ignored` names (settings an algorithm reads as having no effect).
template <class Options>
void warn_ignored(const ConfigNode& map, const OptionFields<Options>& fields,
                  const std::vector<OptionProblem>& ignored) {
  for (const OptionProblem& problem : ignored)
    warn_option(map, std::vector<OptionRule>(fields.begin(), fields.end()), problem);
}

}  // namespace kollective::driver

#endif
