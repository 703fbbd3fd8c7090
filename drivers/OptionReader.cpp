#include "kollective/drivers/OptionReader.hpp"

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

void warn_option(const ConfigNode& map, const std::vector<OptionRule>& rules, const OptionProblem& problem) {
  for (const OptionRule& rule : rules) {
    if (rule.name != problem.option) continue;
    std::vector<std::string> keys = rule.former_names;
    keys.insert(keys.begin(), rule.name);
    for (const std::string& key : keys) {
      if (!map.has(key)) continue;
      const ConfigNode node = map.required(key);
      warn(node.file() + ":" + std::to_string(node.line()) + ": '" + key + "' " + problem.problem);
      return;
    }
  }
  warn(map.file() + ":" + std::to_string(map.line()) + ": " + problem.option + " " + problem.problem);
}

void fail_option(const ConfigNode& map, const std::vector<OptionRule>& rules, const OptionProblem& problem) {
  for (const OptionRule& rule : rules) {
    if (rule.name != problem.option) continue;
    if (map.has(rule.name)) map.required(rule.name).error(problem.problem);
    for (const std::string& former : rule.former_names) {
      if (map.has(former)) map.required(former).error(problem.problem);
    }
  }
  map.error(problem.option + " " + problem.problem);
}

}  // namespace kollective::driver
