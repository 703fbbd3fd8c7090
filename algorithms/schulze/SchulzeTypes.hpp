#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_TYPES_HPP

/// \file SchulzeTypes.hpp
/// Schulze voting's options and result, and the names of its choices in configs.

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/core/Progress.hpp"
#include "kollective/core/comm/Communicator.hpp"

namespace kollective::schulze {

enum class LinkRule {
  winning_votes,  ///< p[i][j] = d[i][j] if d[i][j] > d[j][i], else 0 (Schulze's default)
  margin          ///< p[i][j] = max(0, d[i][j] - d[j][i])
};
enum class StrengthWidth {
  automatic,  ///< on GPUs 16 bits when every (doubled) strength is below 65536; 32 on host backends
  bits32,
  bits16  ///< fails when a strength does not fit
};

struct Options {
  LinkRule rule = LinkRule::winning_votes;
  StrengthWidth width = StrengthWidth::automatic;
  bool keep_paths = false;  ///< copy the strongest-path matrix to the result
  Reporter reporter;        ///< progress of the strongest paths (none: silent)
  /// The ranks that share the solve (comm::from_mpi; a collective over them); the default, this
  /// process alone.
  comm::Communicator communicator;
};

struct Result {
  int alternatives = 0;
  int strength_bits = 32;                 ///< width the path computation used
  std::vector<int> winners;               ///< every i with p[i][j] >= p[j][i] for all j
  std::vector<int> beaten;                ///< per i: number of j with p[i][j] > p[j][i]
  std::vector<std::vector<int>> ranking;  ///< groups by beaten count, most first
  std::vector<std::uint32_t> paths;       ///< n*n doubled strengths, when keep_paths
  double paths_seconds = 0.0;             ///< fenced time of the strongest-path kernels alone
  int ranks = 1;                          ///< ranks that shared the path matrix
  double exchange_seconds = 0.0;          ///< this rank's time in broadcasts and block trades (waits included)
  std::uint32_t path(int i, int j) const { return paths[static_cast<size_t>(i) * alternatives + j]; }
};

LinkRule parse_link_rule(const std::string& name);            ///< "winning_votes" | "margin"
StrengthWidth parse_strength_width(const std::string& name);  ///< "auto" | "32" | "16"
const char* to_string(LinkRule rule);

/// Groups alternatives by beaten count, most first (ties grouped, indices ascending).
std::vector<std::vector<int>> rank_by_beaten(const std::vector<int>& beaten);

}  // namespace kollective::schulze

#endif
