#include "kollective/algorithms/kemeny/KemenyIO.hpp"

#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Csv.hpp"

namespace kollective::kemeny {

std::string format_ranking(const Ranking& ranking, const std::vector<std::string>& names) {
  std::string text;
  for (size_t p = 0; p < ranking.size(); ++p) text += (p ? " > " : "") + names[ranking[p]];
  return text;
}

std::string rankings_csv(const Result& result, const Counts& o) {
  const std::vector<std::string>& names = o.names;
  const std::string distance = doubled_votes_text(input_distance(o, result.distance));
  std::string text = csv_record({"ranking", "distance", "position", "alternative"});
  for (std::size_t r = 0; r < result.optima.size(); ++r) {
    for (std::size_t p = 0; p < result.optima[r].size(); ++p) {
      text += csv_record({std::to_string(r + 1), distance, std::to_string(p + 1), names[result.optima[r][p]]});
    }
  }
  return text;
}

}  // namespace kollective::kemeny
