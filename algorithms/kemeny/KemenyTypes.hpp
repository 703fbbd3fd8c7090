#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_TYPES_HPP

/// \file KemenyTypes.hpp
/// Kemeny rank aggregation's inputs, options and result, the names of its choices in configs,
/// and the sizes its exact methods accept. Counts are the doubled pairwise counts of the
/// preferences core (o[i][j] = 2 x weight preferring i to j), so distances stay exact integers
/// (halves come from ties).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/OptionFields.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/ResultFields.hpp"
#include "kollective/core/Throughput.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::kemeny {

using Ranking = std::vector<int>;  ///< alternatives, most preferred first
using Counts = preferences::PairwiseCounts;

enum class Method { automatic, enumeration, dp, heuristic };
inline constexpr EnumNames<Method, 4> method_names{{{Method::automatic, "auto"},
                                                    {Method::enumeration, "enumeration"},
                                                    {Method::dp, "dp"},
                                                    {Method::heuristic, "heuristic"}}};
inline const char* to_string(Method method) { return name_of(method_names, method); }

struct Options {
  Method method = Method::automatic;
  int list_limit = 100;    ///< optimal rankings listed at most (the DP counts them all; the LP search to this limit)
  std::uint64_t seed = 1;  ///< for KwikSort
  /// The ranks that share the subset DP, each holding a share of its tables (comm::from_mpi; a
  /// collective over them, every rank passing the same input); the default, this process alone.
  comm::Communicator communicator;
  /// auto: the largest component given to the subset DP first (-1: auto_dp_limit). Larger ones get
  /// branch and cut on the LP (KemenySearch.hpp) where the build has CLP; where that does not
  /// finish, the DP where it fits and is expected within time_limit (the search then has about
  /// the DP's expected time), else the best ranking with its certified gap.
  int dp_limit = -1;
  /// auto: seconds at most for each component's branch and cut (0: no limit); above 150
  /// alternatives branch and cut has half of them, and a memetic search the rest where it did not
  /// prove the optimum; above branch and cut's size, the LP bound and a heuristic search
  double time_limit = 300;
  /// auto: fix the pairs of KemenyReductions.hpp before a component's branch and cut (false: an
  /// ablation, the search without them)
  bool reduce = true;
  /// auto: add violated Möbius ladder inequalities to the root LP of branch and cut once no
  /// triangle is violated (KemenyLP.hpp's Separation)
  bool ladders = false;
  /// auto: add violated fence inequalities there too (they close little of the gap on random
  /// tournaments, and nothing beside ladders: perf/results/kemeny/cpu_cut_gaps.md)
  bool fences = false;
  /// auto: violated triangles per pair in each separation round of branch and cut's root LP (more:
  /// fewer rounds of a larger LP; below the root, one: perf/results/kemeny/cpu_root_triangles/)
  int root_triangles = 3;
  /// auto: list and count the optima of the components the LP search proves (false: the one
  /// optimum found, count_known false; the DP counts them anyway)
  bool count = true;
  /// Keep what proves an exact result (Result::certificate; auto records each search's tree).
  bool certify = false;
  Reporter reporter;  ///< progress of the DP and the enumeration, notes (none: silent)
};

struct Certificate;  // KemenyCertificate.hpp

struct Result {
  std::uint64_t distance = 0;     ///< doubled (halves come from ties)
  bool exact = false;             ///< distance is the optimum (found by an exact method, or a
                                  ///< heuristic ranking that meets the lower bound)
  std::uint64_t lower_bound = 0;  ///< doubled; equals distance when exact
  std::vector<Ranking> optima;    ///< optimal rankings (exact) or the best ranking found
  bool count_known = false;       ///< every optimum was enumerated: count is exact
  std::uint64_t count = 0;  ///< optimal rankings: exact when count_known, else at least this many (0: not searched)
  bool count_saturated = false;      ///< true when the count exceeds 2^64 - 1
  std::vector<int> component_sizes;  ///< Condorcet components, in ranking order
  /// What solved each component: trivial (1 or 2 alternatives), dp, lp (the LP optimum was a
  /// ranking), branch-and-cut, or heuristic (not proven: the best ranking found)
  std::vector<std::string> component_methods;
  std::string method;             ///< what ran, e.g. "decomposition+dp+lp": the components' methods once each
  double lp_s = 0;                ///< in LP bounds (CLP and the triangle search), over the components
  int lp_rounds = 0;              ///< LP solves, over the components
  std::int64_t lp_cuts = 0;       ///< triangle inequalities added, over the components
  std::int64_t lp_ladders = 0;    ///< Möbius ladder inequalities added, over the components
  std::int64_t lp_fences = 0;     ///< fence inequalities added, over the components
  std::int64_t search_nodes = 0;  ///< LP nodes of branch and cut, over the components
  /// auto's data reduction (KemenyReductions.hpp), over the components given to the LP search:
  /// their pairs, and those fixed in every optimum by the exchange rule, the 3/4-majority rule, the
  /// grouping rule and transitivity
  std::int64_t reduction_pairs = 0;
  std::int64_t fixed_by_exchange = 0;
  std::int64_t fixed_by_majority = 0;
  std::int64_t fixed_by_grouping = 0;
  std::int64_t fixed_by_closure = 0;
  bool lp_missing = false;  ///< a component was left with a gap that this build's missing LP bound might close
  int ranks = 1;            ///< ranks that shared the largest subset DP
  double exchange_s = 0;    ///< of the subset DPs, spent waiting for the layer trades between ranks
  double dp_layers_s = 0;   ///< in the subset DPs' tables: set up and filled (waits included; not the listing)
  /// With options.certify, for an exact result: what proves it (KemenyCertificate.hpp)
  std::shared_ptr<const Certificate> certificate;
};

/// A solve's result with the input it solved: what result_fields() read (distances in the
/// input's own weights, rankings by name).
struct Report {
  const Result& result;
  const Counts& counts;
};
/// What a solve reports, declared once: the driver's table columns and console summary, and
/// Python's result objects, are made from it (core/ResultFields.hpp).
const ResultFields<Report>& result_fields();

/// Largest n the enumeration accepts (it searches all n! rankings).
constexpr int enumeration_max_alternatives = 16;
/// Largest n the subset DP accepts (the tables and masks are 64-bit; memory decides below that).
constexpr int dp_max_alternatives = 40;
/// The most optimal rankings a solve may list (Options::list_limit).
constexpr int max_list_limit = 1000000;

/// The options a config or Python may set, declared once (core/OptionFields.hpp): the YAML
/// reader, the config reference, Python's keyword arguments and check() read them.
const OptionFields<Options>& option_fields();

/// The one check of options, for the driver, Python and solve(): every declared field in its
/// range. check: the first problem, if any; validate: fails with it.
std::optional<OptionProblem> check(const Options& options);
void validate(const Options& options);
/// `options` with auto's branch-and-cut settings (dp_limit, reduce, ladders, fences,
/// root_triangles; check() refuses them changed beside another method) at their defaults.
Options without_auto_settings(Options options);
/// Fails unless a solve's result is consistent with its counts: every listed ranking orders all n
/// alternatives and scores the distance, the bound is at most the distance (equal when exact).
/// solve() checks each result with it; an internal error when not.
void check_result(const Counts& o, const Result& result);
/// The largest n whose exact results verify re-solves by the enumeration (n! rankings).
constexpr int enumeration_verify_max = 12;

/// Bytes the subset DP needs for n alternatives with `distance_bytes`-wide distances.
std::int64_t dp_bytes(int n, int distance_bytes);
/// Whether distances of this profile fit in 32 bits (the DP then uses 32-bit entries).
bool distances_fit_32(const Counts& o);

/// The exact search solve() will do, for estimating its time before it starts: n! rankings by
/// enumeration, and sum of c 2^c subset steps over what the DP solves (the whole profile for
/// `dp`; for `auto`, each Condorcet component of over 2 alternatives whose tables fit in
/// `device_bytes`, and of at most auto_dp_limit alternatives: larger ones go to the DP only when
/// the LP bound does not certify their ranking). Heuristics and bounds are polynomial and not
/// counted.
struct PlannedWork {
  double rankings = 0;
  double dp_steps = 0;
};
PlannedWork planned_work(const Counts& o, const Options& options, std::int64_t device_bytes);

/// auto's largest Condorcet component given to the subset DP first: options.dp_limit, or
/// lp_first_size where the build has the LP search (else every size the DP accepts).
int auto_dp_limit(const Options& options);
/// Above this size branch and cut on the LP bound proves a component sooner than the subset DP,
/// on a CPU and on a GPU alike, whose time doubles with each alternative.
constexpr int lp_first_size = 12;

/// Kemeny's time model (core/Throughput.hpp), for auto and the driver's estimates alike: the
/// subset DP's steps (n 2^n for n alternatives) and the enumeration's rankings a second.
inline constexpr Throughput dp_steps_throughput{1.7e11, 6.5e7};
inline constexpr Throughput enumeration_throughput{4.5e10, 1.9e8};

/// The subset DP's expected seconds for n alternatives on a GPU or on `threads` host threads. auto
/// gives the LP search of a component the DP could solve about this long before the DP.
double dp_estimated_seconds(int n, bool on_gpu, int threads);

}  // namespace kollective::kemeny

#endif
