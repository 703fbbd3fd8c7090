#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_TYPES_HPP

/// \file SchulzeTypes.hpp
/// Schulze voting's options and result, and the names of its choices in configs.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/OptionFields.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/ResultFields.hpp"
#include "kollective/core/Throughput.hpp"
#include "kollective/core/comm/Communicator.hpp"

namespace kollective::schulze {

enum class LinkRule {
  winning_votes,  ///< p[i][j] = d[i][j] if d[i][j] > d[j][i], else 0 (Schulze's default)
  margin          ///< p[i][j] = max(0, d[i][j] - d[j][i])
};
/// The strongest paths' integer width: the option `strength_bits`, and Result::strength_bits.
enum class StrengthBits {
  automatic,  ///< on GPUs 16 bits when every (doubled) strength is below 65536; 32 on host backends
  bits32,
  bits16  ///< fails when a strength does not fit
};
/// The former name of StrengthBits, for a release (CHANGELOG.md).
using StrengthWidth [[deprecated("schulze::StrengthWidth is now schulze::StrengthBits")]] = StrengthBits;
inline constexpr EnumNames<LinkRule, 2> link_rule_names{
    {{LinkRule::winning_votes, "winning_votes"}, {LinkRule::margin, "margin"}}};
inline constexpr EnumNames<StrengthBits, 3> strength_bits_names{
    {{StrengthBits::automatic, "auto"}, {StrengthBits::bits32, "32"}, {StrengthBits::bits16, "16"}}};
/// The former name of strength_bits_names, for a release.
[[deprecated("schulze::strength_width_names is now schulze::strength_bits_names")]] inline constexpr const auto&
    strength_width_names = strength_bits_names;
inline const char* to_string(LinkRule rule) { return name_of(link_rule_names, rule); }

struct Options {
  LinkRule rule = LinkRule::winning_votes;
  StrengthBits strength_bits = StrengthBits::automatic;  ///< was `width`
  bool keep_paths = false;                               ///< copy the strongest-path matrix to the result
  Reporter reporter;                                     ///< progress of the strongest paths (none: silent)
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
  double paths_s = 0.0;                   ///< fenced time of the strongest-path kernels alone
  int ranks = 1;                          ///< ranks that shared the path matrix
  double exchange_s = 0.0;                ///< this rank's time in broadcasts and block trades (waits included)
  /// The doubled strength of the strongest path from i to j (options.keep_paths).
  std::uint32_t path(int i, int j) const {
    if (paths.empty()) fail("schulze::Result::path: the solve kept no paths (set Options::keep_paths)");
    if (i < 0 || j < 0 || i >= alternatives || j >= alternatives)
      fail("schulze::Result::path(", i, ", ", j, "): alternatives are 0..", alternatives - 1);
    return paths[static_cast<size_t>(i) * alternatives + j];
  }
};

/// The options a config or Python may set, declared once (core/OptionFields.hpp): the YAML
/// reader, the config reference, Python's keyword arguments and check() read them.
const OptionFields<Options>& option_fields();
/// Every declared field in its range: the first problem, if any; validate fails with it.
std::optional<OptionProblem> check(const Options& options);
void validate(const Options& options);
/// Fails unless a solve's result is consistent: the ranking groups every alternative once by
/// beaten count, most first, some alternative wins, and where the result holds the paths, the
/// winners and beaten counts are theirs. solve() checks each result with it; an internal error
/// when not.
void check_result(const Result& result);

/// Schulze's time model (core/Throughput.hpp): strongest-path cell updates (n^3) a second, which
/// the driver's estimates read.
inline constexpr Throughput path_updates_throughput{9e12, 1.6e9};

/// A solve's result with the names of its alternatives and the options it ran with: what
/// result_fields() read.
struct Report {
  const Result& result;
  const Options& options;
  const std::vector<std::string>& names;
};
/// What a solve reports, declared once: the driver's table columns and console summary, and
/// Python's result objects, are made from it (core/ResultFields.hpp).
const ResultFields<Report>& result_fields();
/// The ranking's groups shown in the tables (the whole ranking is the ranking file's).
constexpr std::size_t ranking_head_groups = 5;

/// Groups alternatives by beaten count, most first (ties grouped, indices ascending).
std::vector<std::vector<int>> rank_by_beaten(const std::vector<int>& beaten);

}  // namespace kollective::schulze

#endif
