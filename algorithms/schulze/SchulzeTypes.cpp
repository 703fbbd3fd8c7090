#include "kollective/algorithms/schulze/SchulzeTypes.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "kollective/core/Error.hpp"

namespace kollective::schulze {

const OptionFields<Options>& option_fields() {
  static const OptionFields<Options> fields = {
      choice_option("rule", &Options::rule, link_rule_names, "a link's strength"),
      choice_option("strength_bits", &Options::strength_bits, strength_bits_names,
                    "path width (auto: 16 on GPUs when every strength fits)"),
  };
  return fields;
}

std::optional<OptionProblem> check(const Options& options) { return check_fields(options, option_fields()); }

void check_result(const Result& result) {
  const int n = result.alternatives;
  auto wrong = [](const auto&... what) { fail("internal error: the Schulze result ", what...); };
  if (static_cast<int>(result.beaten.size()) != n) wrong("has ", result.beaten.size(), " beaten counts for ", n);
  if (n > 0 && result.winners.empty()) wrong("has no winner");
  std::vector<char> placed(n);
  int previous = n;
  for (const auto& group : result.ranking) {
    if (group.empty() || result.beaten[group.front()] >= previous) wrong("ranking is not by beaten count, most first");
    previous = result.beaten[group.front()];
    for (const int a : group) {
      if (a < 0 || a >= n || placed[a] || result.beaten[a] != previous) wrong("ranking misplaces ", a);
      placed[a] = 1;
    }
  }
  if (std::count(placed.begin(), placed.end(), 1) != n) wrong("ranking leaves out alternatives");
  if (result.paths.size() != static_cast<std::size_t>(n) * n) return;
  std::vector<int> winners;
  for (int i = 0; i < n; ++i) {
    int beaten = 0, lost = 0;
    for (int j = 0; j < n; ++j) {
      beaten += result.path(i, j) > result.path(j, i);
      lost += result.path(j, i) > result.path(i, j);
    }
    if (beaten != result.beaten[i]) wrong("beaten count of ", i, " is not its paths' ", beaten);
    if (lost == 0) winners.push_back(i);
  }
  if (winners != result.winners) wrong("winners are not its paths'");
}

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("schulze: ", problem->option, " ", problem->problem);
}

const ResultFields<Report>& result_fields() {
  using F = FieldKind;
  static const ResultFields<Report> fields = {
      field<Report>("rule", F::context, "", "a link's strength",
                    [](const Report& r) { return to_string(r.options.rule); }),
      field<Report>("strength_bits", F::outcome, "", "the path computation's width",
                    [](const Report& r) { return r.result.strength_bits; }),
      field<Report>("winners", F::answer, "", "alternatives no other beats by a stronger path",
                    [](const Report& r) { return named(r.result.winners, r.names); })
          .shown(),
      field<Report>("ranking_groups", F::answer, "count", "groups of the ranking (tied alternatives share one)",
                    [](const Report& r) { return r.result.ranking.size(); }),
      field<Report>("ranking_head", F::answer, "", "the ranking's first groups, by alternatives beaten",
                    [](const Report& r) {
                      TextGroups head;
                      for (std::size_t g = 0; g < r.result.ranking.size() && g < ranking_head_groups; ++g)
                        head.push_back(named(r.result.ranking[g], r.names));
                      return head;
                    })
          .shown(),
  };
  return fields;
}

std::vector<std::vector<int>> rank_by_beaten(const std::vector<int>& beaten) {
  std::map<int, std::vector<int>, std::greater<int>> groups;
  for (int i = 0; i < static_cast<int>(beaten.size()); ++i) groups[beaten[i]].push_back(i);
  std::vector<std::vector<int>> ranking;
  for (auto& entry : groups) ranking.push_back(std::move(entry.second));
  return ranking;
}

}  // namespace kollective::schulze
