#include "kollective/algorithms/schulze/SchulzeIO.hpp"

#include <algorithm>

#include "kollective/core/Csv.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::schulze {

std::string ranking_csv(const Result& result, const std::vector<std::string>& names) {
  std::string text = csv_record({"rank", "alternative", "beaten", "winner"});
  for (size_t g = 0; g < result.ranking.size(); ++g) {
    for (int i : result.ranking[g]) {
      const bool winner = std::binary_search(result.winners.begin(), result.winners.end(), i);
      text +=
          csv_record({std::to_string(g + 1), names[i], std::to_string(result.beaten[i]), winner ? "true" : "false"});
    }
  }
  return text;
}

std::string beats_csv(const Result& result, const std::vector<std::string>& names) {
  std::string text = csv_record({"winner", "loser", "path_winner_to_loser", "path_loser_to_winner"});
  for (int i = 0; i < result.alternatives; ++i) {
    for (int j = 0; j < result.alternatives; ++j) {
      if (result.path(i, j) > result.path(j, i)) {
        text += csv_record(
            {names[i], names[j], doubled_votes_text(result.path(i, j)), doubled_votes_text(result.path(j, i))});
      }
    }
  }
  return text;
}

void write_paths_csv(const Result& result, const std::vector<std::string>& names, const std::string& path) {
  const preferences::PairwiseCounts paths{result.alternatives, names, result.paths};
  preferences::write_pairwise_csv(paths, path);
}

}  // namespace kollective::schulze
