#include "kollective/drivers/OptionReader.hpp"

#include <optional>

#include "kollective/drivers/Reporting.hpp"

namespace kollective::driver {

OptionValue read_value(const ConfigNode& node, const OptionRule& rule) {
  switch (rule.kind) {
    case OptionKind::flag:
      return node.as_bool();
    case OptionKind::integer:
      return node.as_int();
    case OptionKind::number:
      return node.as_double();
    case OptionKind::choice:
      return node.as_choice(rule.choices);
    case OptionKind::integers: {
      std::vector<std::int64_t> list;  // one value is written [value], as everywhere in a config
      for (const ConfigNode& element : node.elements()) list.push_back(element.as_int());
      return list;
    }
  }
  node.error("internal error: an option of unknown kind");
}

ConfigNode option_node(const ConfigNode& map, const OptionRule& rule, const std::string& key) {
  const ConfigNode node = map.required(key);
  if (key == rule.name) return node;
  if (map.has(rule.name))
    node.error("gives the former name of '" + rule.name + "' beside it: keep only '" + rule.name + "'");
  const std::string where = node.file() + ":" + std::to_string(node.line());
  warn(where + ": '" + key + "' is now '" + rule.name + "' (CHANGELOG.md); read as " + rule.name);
  return node;
}

namespace {

/// The key under which `map` gives `option` (its name or a former one), or none.
std::optional<std::string> given_key(const ConfigNode& map, const std::vector<OptionRule>& rules,
                                     const std::string& option) {
  for (const OptionRule& rule : rules) {
    if (rule.name != option) continue;
    if (map.has(rule.name)) return rule.name;
    for (const std::string& former : rule.former_names) {
      if (map.has(former)) return former;
    }
  }
  return std::nullopt;
}

}  // namespace

void warn_option(const ConfigNode& map, const std::vector<OptionRule>& rules, const OptionProblem& problem) {
  const auto key = given_key(map, rules, problem.option);
  const ConfigNode node = key ? map.required(*key) : map;
  warn(node.file() + ":" + std::to_string(node.line()) + ": '" + key.value_or(problem.option) + "' " + problem.problem);
}

void fail_option(const ConfigNode& map, const std::vector<OptionRule>& rules, const OptionProblem& problem) {
  if (const auto key = given_key(map, rules, problem.option)) map.required(*key).error(problem.problem);
  map.error(problem.option + " " + problem.problem);
}

}  // namespace kollective::driver
