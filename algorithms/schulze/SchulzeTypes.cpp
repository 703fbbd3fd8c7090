#include "kollective/algorithms/schulze/SchulzeTypes.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "kollective/core/Error.hpp"

namespace kollective::schulze {

const OptionFields<Options>& option_fields() {
  static const OptionFields<Options> fields = {
      choice_option("rule", &Options::rule, link_rule_names, "a link's strength"),
      choice_option("strength_bits", &Options::width, strength_width_names,
                    "path width (auto: 16 on GPUs when every strength fits)"),
  };
  return fields;
}

std::optional<OptionProblem> check(const Options& options) { return check_fields(options, option_fields()); }

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("schulze: ", problem->option, " ", problem->problem);
}

std::vector<std::vector<int>> rank_by_beaten(const std::vector<int>& beaten) {
  std::map<int, std::vector<int>, std::greater<int>> groups;
  for (int i = 0; i < static_cast<int>(beaten.size()); ++i) groups[beaten[i]].push_back(i);
  std::vector<std::vector<int>> ranking;
  for (auto& entry : groups) ranking.push_back(std::move(entry.second));
  return ranking;
}

}  // namespace kollective::schulze
