#ifndef KOLLECTIVE_ALGORITHMS_COALITION_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_TYPES_HPP

/// \file CoalitionTypes.hpp
/// Coalition structure generation: a characteristic function v over the 2^n coalitions of n
/// agents (bit i = agent i + 1), and the partition of the agents maximising the sum of values.
/// The game, the solver's options and result, the names of its choices in configs, and sizes.

#include <Kokkos_Macros.hpp>

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

namespace kollective::coalition {

/// v[mask] for every coalition, v[0] = 0.
struct Game {
  int agents = 0;
  std::vector<double> values;  ///< 2^agents entries
  std::vector<std::string> names;
};

/// A game's values where they live (a Game's, or a caller's array read in place).
struct Values {
  int agents = 0;
  const double* v = nullptr;  ///< 2^agents entries, v[mask]

  std::size_t count = 0;  ///< entries held (solve refuses a count other than 2^agents)

  Values() = default;
  Values(int agents_, const double* values) : agents(agents_), v(values), count(size()) {}
  Values(const Game& game)  // implicit: a Game is its values
      : agents(game.agents), v(game.values.data()), count(game.values.size()) {}
  Values(Game&&) = delete;  // would outlive the game
  std::size_t size() const { return agents < 0 || agents > 63 ? 0 : std::size_t{1} << agents; }
};

using Structure = std::vector<std::uint64_t>;  ///< coalitions as masks, ascending

/// dp: every split; idp: IDP's splits; ip: IP's branch and bound over the integer-partition
/// subspaces (CoalitionIP.hpp); automatic ("auto"): IP for a share of IDP's time, then IDP with IP
/// going on between its layers (CoalitionAuto_Impl.hpp; IDP alone where the solve is shared
/// over ranks).
enum class Method { dp, idp, ip, automatic };
inline constexpr EnumNames<Method, 4> method_names{
    {{Method::dp, "dp"}, {Method::idp, "idp"}, {Method::ip, "ip"}, {Method::automatic, "auto"}}};
inline const char* to_string(Method method) { return name_of(method_names, method); }

struct Options {
  Method method = Method::idp;
  /// What the dp and idp tables hold (float: half the memory traffic, sums rounded to float). IP
  /// computes in double.
  Precision precision = Precision::float64;
  /// The ranks that share the solve (comm::from_mpi; a collective over them, every rank passing
  /// the same values): each layer's blocks are split over the ranks and the layer is then gathered
  /// on every rank. The default, this process alone.
  comm::Communicator communicator;
  Reporter reporter;  ///< progress of the layers (none: silent)
  /// ip and auto (on one rank): seconds after which the solve returns the best structure found
  /// with a proven bound on the optimum (Result.exact false); 0: none. auto gives IP the whole
  /// limit where IDP's estimated time does not fit in it; else IP its share, then IDP, which stops
  /// between layers once the limit has passed (IP's best structure and bound are returned then).
  /// dp and idp take none.
  double time_limit = 0;
  /// auto: IP's time before IDP starts, as a share of IDP's estimated time (0, with ip_min_s 0:
  /// IDP at once). A small share: IP ends the games it prunes well within it, and costs the others
  /// little.
  double ip_share = 0.07;
  /// auto: IP's time before IDP starts is at least this many seconds, or IDP's estimated time where
  /// that is shorter: below about 26 agents on a GPU a share of IDP's time is shorter than IP needs
  /// for games it ends at once (Zipf at n = 25: 0.03 s of IP, then IDP's 0.35 s).
  double ip_min_s = 0.1;
  /// auto: IP's time between IDP's layers, all rounds together, as a share of IDP's time so far.
  double ip_round_share = 0.03;
};

struct Result {
  double value = 0;        ///< f(grand coalition)
  Structure structure;     ///< an optimal structure (its value equals `value`)
  std::string method;      ///< the method that proved the optimum (auto: ip or idp)
  double splits = 0;       ///< splits the solver evaluated (evaluated_splits(n, method))
  int ranks = 1;           ///< ranks that shared the solve
  double exchange_s = 0;   ///< of the solve, spent gathering layers from the other ranks
  std::int64_t nodes = 0;  ///< IP (and auto): coalitions its branch and bound tried
  bool exact = true;       ///< false: ip or auto stopped at its time_limit, `value` that of the best structure found
  double upper_bound = 0;  ///< the optimum is at most this (equal to `value` when exact)
  double ip_s = 0;         ///< ip and auto: IP's time (auto: also when IDP then proved the optimum)
  /// Of ip_s, the start: the values' copy to the device (not in auto, whose copy IP and IDP
  /// share, made before), the size statistics, the subspace plan and the DP start.
  double ip_start_s = 0;
  /// What the DP's tables held (Options::precision); IP computes in double whatever it is.
  Precision precision = Precision::float64;
};

/// The options a config or Python may set, declared once (core/OptionFields.hpp): the YAML
/// reader, the config reference, Python's keyword arguments and check() read them.
const OptionFields<Options>& option_fields();

/// A solve's result with the options it ran with and the agents' names: what result_fields() read.
struct Report {
  const Result& result;
  const Options& options;
  const std::vector<std::string>& names;
};
/// What a solve reports, declared once: the driver's table columns and console summary, and
/// Python's result objects, are made from it (core/ResultFields.hpp).
const ResultFields<Report>& result_fields();

/// The first problem of `options` (the option and what is wrong), or none: every declared field
/// in its range, method ip only on one rank, and a time_limit only with method ip, or auto on
/// one rank.
std::optional<OptionProblem> check(const Options& options);
void validate(const Options& options);
/// Settings changed from their defaults that options.method never reads (precision with ip;
/// ip_share, ip_min_s, ip_round_share but with auto), each with why: the driver and Python warn of
/// them, and a later release refuses them in check() (CHANGELOG.md). The solve ignores them.
std::vector<OptionProblem> ignored_settings(const Options& options);
/// What the solve computes in: options.precision for dp, idp and auto; double for ip, which
/// ignores precision. The values are checked against its range (value_limit).
inline Precision solve_precision(const Options& options) {
  return options.method == Method::ip ? Precision::float64 : options.precision;
}

/// Largest n the solver indexes (masks are 64-bit; memory decides well below).
constexpr int max_agents = 40;
/// Whether IDP evaluates a split of a size-c coalition into parts of sizes a and c - a.
KOKKOS_INLINE_FUNCTION bool idp_allows(int n, int c, int a) {
  const int big = a > c - a ? a : c - a;
  return c == n || big <= n - c;
}
/// IDP's splits a second in double (core/Throughput.hpp): on a GPU its rate at the largest sizes,
/// where it is fastest, so that auto's share for IP stays within its part of IDP's real time
/// there. auto and the driver's estimates read it.
inline constexpr Throughput idp_splits_throughput{5e11, 4e8};
/// Number of splits a method evaluates for n agents.
double split_count(int n, Method method);

/// Fails, naming `source` (a file, or empty), when n is outside 1..max_agents or the values of a
/// game of n agents cannot fit in (this rank's share of) host memory.
void require_game_memory(int agents, const std::string& source);

/// A game of `agents` with every value 0 and agents named 1..n; fails as require_game_memory.
Game empty_game(int agents, const std::string& source = "");

/// Fails unless every value is finite, v(empty) = 0 and |v| <= max / 64 of double (of float when
/// `single_precision`), so that sums of up to 40 values stay finite; `source` names the input.
void validate_values(const Game& game, const std::string& source, bool single_precision = false);
void validate_values(Values values, const std::string& source, bool single_precision = false);
/// The largest |v| validate_values accepts: max / 64 of double (of float when `single_precision`).
double value_limit(bool single_precision);
/// Fails naming v(mask) = value, the first value validate_values refuses, and why.
[[noreturn]] void fail_value(const std::string& source, std::uint64_t mask, double value, bool single_precision);

}  // namespace kollective::coalition

#endif
