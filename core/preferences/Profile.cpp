#include "kollective/core/preferences/Profile.hpp"

#include <algorithm>
#include <map>

#include "kollective/core/Error.hpp"

namespace kollective::preferences {

const char* to_string(DataType type) {
  switch (type) {
    case DataType::soc:
      return "soc";
    case DataType::soi:
      return "soi";
    case DataType::toc:
      return "toc";
    case DataType::toi:
      return "toi";
  }
  return "?";
}

std::int64_t Profile::total_weight() const {
  std::int64_t total = 0;
  for (const auto& ballot : ballots) total += ballot.count;
  return total;
}

DataType Profile::data_type() const {
  bool ties = false, incomplete = false;
  for (const auto& ballot : ballots) {
    size_t ranked = 0;
    for (const auto& group : ballot.groups) {
      ties = ties || group.size() > 1;
      ranked += group.size();
    }
    incomplete = incomplete || ranked < static_cast<size_t>(alternatives);
  }
  if (ties) return incomplete ? DataType::toi : DataType::toc;
  return incomplete ? DataType::soi : DataType::soc;
}

void Profile::merge_identical() {
  std::map<std::vector<std::vector<int>>, std::int64_t> counts;
  std::vector<std::vector<std::vector<int>>> first_seen;
  for (auto& ballot : ballots) {
    for (auto& group : ballot.groups) std::sort(group.begin(), group.end());
    auto [it, inserted] = counts.emplace(ballot.groups, 0);
    if (inserted) first_seen.push_back(ballot.groups);
    it->second += ballot.count;
  }
  std::vector<Ballot> merged;
  merged.reserve(first_seen.size());
  for (auto& groups : first_seen) merged.push_back({counts[groups], std::move(groups)});
  std::stable_sort(merged.begin(), merged.end(), [](const Ballot& a, const Ballot& b) { return a.count > b.count; });
  ballots = std::move(merged);
}

std::vector<std::string> numbered_names(int alternatives) {
  std::vector<std::string> names;
  for (int i = 1; i <= alternatives; ++i) names.push_back(std::to_string(i));
  return names;
}

void validate(const Profile& profile, const std::string& origin) {
  const int n = profile.alternatives;
  if (n < 1) fail(origin, ": a profile needs at least one alternative");
  if (static_cast<int>(profile.names.size()) != n) {
    fail(origin, ": ", profile.names.size(), " names for ", n, " alternatives");
  }
  // Doubled counts are kept in 32 bits by the pairwise builder; keep totals far below that here.
  constexpr std::int64_t max_total = std::int64_t{1} << 31;
  std::int64_t total = 0;
  std::vector<int> seen(n, -1);
  for (size_t b = 0; b < profile.ballots.size(); ++b) {
    const Ballot& ballot = profile.ballots[b];
    if (ballot.count <= 0) fail(origin, ": ballot ", b + 1, " has non-positive count ", ballot.count);
    if (ballot.count >= max_total - total) fail(origin, ": total voter weight exceeds 2^31 - 1");
    total += ballot.count;
    for (const auto& group : ballot.groups) {
      if (group.empty()) fail(origin, ": ballot ", b + 1, " has an empty tie group");
      for (int a : group) {
        if (a < 0 || a >= n) fail(origin, ": ballot ", b + 1, " names alternative ", a + 1, " of ", n);
        if (seen[a] == static_cast<int>(b)) {
          fail(origin, ": ballot ", b + 1, " ranks alternative ", a + 1, " twice");
        }
        seen[a] = static_cast<int>(b);
      }
    }
  }
}

std::vector<int> positions(const Ballot& ballot, int alternatives) {
  std::vector<int> position(alternatives, unranked);
  for (size_t g = 0; g < ballot.groups.size(); ++g) {
    for (int a : ballot.groups[g]) position[a] = static_cast<int>(g);
  }
  return position;
}

}  // namespace kollective::preferences
