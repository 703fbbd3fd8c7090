#ifndef KOLLECTIVE_CORE_PREFERENCES_PROFILE_HPP
#define KOLLECTIVE_CORE_PREFERENCES_PROFILE_HPP

/// \file Profile.hpp
/// A profile: weighted ballots over n alternatives, each an order with possible ties and
/// possibly unranked alternatives (ranked ones are preferred to unranked ones; two unranked
/// alternatives are incomparable and count for neither side).

#include <cstdint>
#include <string>
#include <vector>

namespace kollective::preferences {

/// PrefLib data types: strict/ties x complete/incomplete.
enum class DataType { soc, soi, toc, toi };
const char* to_string(DataType type);

/// One distinct order and how many voters cast it. groups[0] is the most preferred group;
/// alternatives inside a group are tied; alternatives in no group are unranked. Indices from 0.
struct Ballot {
  std::int64_t count = 1;
  std::vector<std::vector<int>> groups;
};

struct Profile {
  int alternatives = 0;
  std::vector<std::string> names;  ///< one per alternative
  std::vector<Ballot> ballots;
  std::string title;

  std::int64_t total_weight() const;
  /// The narrowest PrefLib type that describes every ballot.
  DataType data_type() const;
  /// Merges identical ballots (sums their counts), ordering them by decreasing count.
  void merge_identical();
};

/// Default names "1", "2", ... (PrefLib numbers alternatives from 1).
std::vector<std::string> numbered_names(int alternatives);

/// Checks the invariants (indices in range, no alternative twice in a ballot, no empty group,
/// positive counts, total weight in range, names sized); fails with a message naming `origin`.
void validate(const Profile& profile, const std::string& origin);

/// Position of each alternative in a ballot: group index, or `unranked`.
constexpr int unranked = 0x7fffffff;
std::vector<int> positions(const Ballot& ballot, int alternatives);

}  // namespace kollective::preferences

#endif
