#include "kollective/algorithms/schulze/SchulzeTypes.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "kollective/core/Error.hpp"

namespace kollective::schulze {

LinkRule parse_link_rule(const std::string& name) {
  if (name == "winning_votes") return LinkRule::winning_votes;
  if (name == "margin") return LinkRule::margin;
  fail("unknown Schulze link rule '", name, "' (winning_votes or margin)");
}

StrengthWidth parse_strength_width(const std::string& name) {
  if (name == "auto") return StrengthWidth::automatic;
  if (name == "32") return StrengthWidth::bits32;
  if (name == "16") return StrengthWidth::bits16;
  fail("unknown strength width '", name, "' (auto, 32 or 16)");
}

const char* to_string(LinkRule rule) { return rule == LinkRule::margin ? "margin" : "winning_votes"; }

std::vector<std::vector<int>> rank_by_beaten(const std::vector<int>& beaten) {
  std::map<int, std::vector<int>, std::greater<int>> groups;
  for (int i = 0; i < static_cast<int>(beaten.size()); ++i) groups[beaten[i]].push_back(i);
  std::vector<std::vector<int>> ranking;
  for (auto& entry : groups) ranking.push_back(std::move(entry.second));
  return ranking;
}

}  // namespace kollective::schulze
