#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::kemeny {

std::int64_t dp_bytes(int n, int distance_bytes) {
  const std::int64_t subsets = std::int64_t{1} << n;
  const std::int64_t tables =
      static_cast<std::int64_t>(n) * ((std::int64_t{1} << (n / 2)) + (std::int64_t{1} << (n - n / 2)));
  return subsets * (distance_bytes + 8) + tables * distance_bytes + 8 * (n + 1) * (n + 1) + 4 * n * n;
}

bool distances_fit_32(const Counts& o) {
  std::uint64_t largest = 0;  // every DP entry is at most the sum over pairs of the larger count
  for (int i = 0; i < o.alternatives; ++i) {
    for (int j = i + 1; j < o.alternatives; ++j) largest += std::max(o.at(i, j), o.at(j, i));
  }
  return largest < 0xffffffffull;
}

int auto_dp_limit(const Options& options) {
  if (options.dp_limit >= 0) return std::min(options.dp_limit, dp_max_alternatives);
  return lp_available() ? lp_first_size : dp_max_alternatives;
}

double dp_estimated_seconds(int n, bool on_gpu, int threads) {
  return n * std::ldexp(1.0, n) / dp_steps_throughput.per_second(on_gpu, threads);
}

PlannedWork planned_work(const Counts& o, const Options& options, std::int64_t device_bytes) {
  PlannedWork work;
  auto dp_steps = [](int n) { return n * std::ldexp(1.0, n); };
  switch (options.method) {
    case Method::enumeration:
      work.rankings = std::tgamma(o.alternatives + 1.0);
      break;
    case Method::dp:
      work.dp_steps = dp_steps(o.alternatives);
      break;
    case Method::heuristic:
      break;
    case Method::automatic:
      for (const auto& component : condorcet_components(o)) {
        const int size = static_cast<int>(component.size());
        if (size > 2 && size <= auto_dp_limit(options) && dp_bytes(size, 8) <= device_bytes)
          work.dp_steps += dp_steps(size);
      }
      break;
  }
  return work;
}

const OptionFields<Options>& option_fields() {
  static const OptionFields<Options> fields = {
      choice_option("method", &Options::method, method_names,
                    "auto: Condorcet components, each by the subset DP or branch and cut on the LP bound"),
      integer_option("list_limit", &Options::list_limit, 1, max_list_limit, "optimal rankings listed at most"),
      integer_option("seed", &Options::seed, 0, std::numeric_limits<std::int64_t>::max(),
                     "the heuristic's KwikSort seed"),
      integer_option("dp_limit", &Options::dp_limit, -1, dp_max_alternatives,
                     "auto: largest component the DP takes first")
          .noting("-1: 12 with CLP, else 40"),
      number_option("time_limit", &Options::time_limit, not_negative,
                    "auto: seconds for each component's branch and cut (above 150 alternatives, half of them, then a "
                    "memetic search; on a GPU, three quarters, the memetic search beside it), or its LP bound and "
                    "iterated local search (on a GPU up to 1000 alternatives, the memetic search)")
          .noting("0: no limit"),
      flag_option("reduce", &Options::reduce, "auto: fix the pairs the data reduction proves"),
      flag_option("ladders", &Options::ladders,
                  "auto: add violated Moebius ladder cuts to the root LP of branch and cut"),
      flag_option("fences", &Options::fences, "auto: add violated fence cuts to the root LP of branch and cut"),
      integer_option("root_triangles", &Options::root_triangles, 1, most_triangles_per_pair,
                     "auto: violated triangles per pair in each cut round of branch and cut's root LP"),
      flag_option("count", &Options::count, "auto: list and count the optima (false: one optimum)"),
  };
  return fields;
}

std::optional<OptionProblem> check(const Options& options) {
  if (auto problem = check_fields(options, option_fields())) return problem;
  if (options.method == Method::automatic) return std::nullopt;
  // Settings of auto's branch and cut, changed from their defaults, would be ignored.
  const Options other_method = without_auto_settings(options);
  for (const auto& field : option_fields()) {
    if (field.get(options) != field.get(other_method))
      return OptionProblem{field.name, "applies to method auto only (its branch and cut)"};
  }
  return std::nullopt;
}

Options without_auto_settings(Options options) {
  const Options defaults;  // the settings check() refuses changed beside another method
  options.dp_limit = defaults.dp_limit;
  options.reduce = defaults.reduce;
  options.ladders = defaults.ladders;
  options.fences = defaults.fences;
  options.root_triangles = defaults.root_triangles;
  return options;
}

void check_result(const Counts& o, const Result& result) {
  const int n = o.alternatives;
  if (result.lower_bound > result.distance || (result.exact && result.lower_bound != result.distance)) {
    fail("internal error: Kemeny's bound ", result.lower_bound, " does not fit the distance ", result.distance,
         result.exact ? " of an exact result" : "");
  }
  std::vector<char> seen(n);
  for (const Ranking& ranking : result.optima) {
    std::fill(seen.begin(), seen.end(), 0);
    for (const int a : ranking) {
      if (a < 0 || a >= n || seen[a]) fail("internal error: a Kemeny ranking repeats or leaves its range: ", a);
      seen[a] = 1;
    }
    if (static_cast<int>(ranking.size()) != n) fail("internal error: a Kemeny ranking of ", ranking.size(), " of ", n);
    if (const std::uint64_t score = distance(o, ranking); score != result.distance) {
      fail("internal error: a listed Kemeny ranking scores ", score, ", not the distance ", result.distance);
    }
  }
}

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("kemeny: ", problem->option, " ", problem->problem);
}

namespace {

/// Doubled counts in votes: exact in a double below 2^53 (halves come from ties).
double votes(std::int64_t doubled) { return static_cast<double>(doubled) / 2; }

}  // namespace

const ResultFields<Report>& result_fields() {
  using F = FieldKind;
  auto reduced = [](const Report& r) { return r.result.reduction_pairs > 0; };  // the LP search's reduction ran
  auto counted = [](const Report& r) { return r.result.exact && r.result.count > 0; };
  static const ResultFields<Report> fields = {
      field<Report>("method", F::outcome, "", "what solved the components, once each",
                    [](const Report& r) { return r.result.method; })
          .shown(),
      field<Report>("exact", F::answer, "", "the distance is the optimum",
                    [](const Report& r) { return r.result.exact; })
          .shown(),
      field<Report>("distance", F::answer, "votes", "Kemeny distance of the consensus (the best found when not exact)",
                    [](const Report& r) { return votes(input_distance(r.counts, r.result.distance)); })
          .shown(),
      field<Report>("lower_bound", F::answer, "votes", "proven lower bound on the optimal distance",
                    [](const Report& r) { return votes(input_distance(r.counts, r.result.lower_bound)); }),
      field<Report>(
          "gap", F::answer, "votes", "distance - lower_bound",
          [](const Report& r) { return votes(static_cast<std::int64_t>(r.result.distance - r.result.lower_bound)); }),
      field<Report>("lop_value", F::answer, "votes", "the consensus's linear ordering value",
                    [](const Report& r) { return votes(lop_value(r.counts, r.result.distance)); }),
      field<Report>("lop_upper_bound", F::answer, "votes", "proven upper bound on the linear ordering value",
                    [](const Report& r) { return votes(lop_value(r.counts, r.result.lower_bound)); }),
      field<Report>("lp_s", F::timing, "s", "in LP bounds (CLP and the triangle search), over the components",
                    [](const Report& r) { return r.result.lp_s; })
          .formerly("lp_seconds"),
      field<Report>("lp_rounds", F::counter, "count", "LP solves", [](const Report& r) { return r.result.lp_rounds; }),
      field<Report>("lp_cuts", F::counter, "count", "triangle inequalities added",
                    [](const Report& r) { return r.result.lp_cuts; }),
      field<Report>("lp_ladders", F::counter, "count", "Moebius ladder inequalities added",
                    [](const Report& r) { return r.result.lp_ladders; }),
      field<Report>("lp_fences", F::counter, "count", "fence inequalities added",
                    [](const Report& r) { return r.result.lp_fences; }),
      field<Report>("search_nodes", F::counter, "count", "LP nodes of branch and cut",
                    [](const Report& r) { return r.result.search_nodes; }),
      field_where<Report>("reduction_pairs", F::counter, "count", "pairs of the components given to the LP search",
                          reduced, [](const Report& r) { return r.result.reduction_pairs; }),
      field_where<Report>("fixed_by_exchange", F::counter, "count", "of them, fixed by the exchange rule", reduced,
                          [](const Report& r) { return r.result.fixed_by_exchange; }),
      field_where<Report>("fixed_by_majority", F::counter, "count", "fixed by the 3/4-majority rule", reduced,
                          [](const Report& r) { return r.result.fixed_by_majority; }),
      field_where<Report>("fixed_by_grouping", F::counter, "count", "fixed by the grouping rule (a minimum cut)",
                          reduced, [](const Report& r) { return r.result.fixed_by_grouping; }),
      field_where<Report>("fixed_by_closure", F::counter, "count", "fixed by transitivity", reduced,
                          [](const Report& r) { return r.result.fixed_by_closure; }),
      field<Report>("count_known", F::answer, "",
                    "every optimum was enumerated: optimal_rankings is exact (unless optimal_rankings_saturated)",
                    [](const Report& r) { return r.result.count_known; })
          .formerly("count_exact"),
      field_where<Report>("optimal_rankings", F::answer, "count",
                          "optimal rankings (at least this many where count_known is false)", counted,
                          [](const Report& r) { return r.result.count; })
          .formerly("count")
          .shown(),
      field_where<Report>("optimal_rankings_saturated", F::answer, "", "the count passed 2^64 - 1", counted,
                          [](const Report& r) { return r.result.count_saturated; }),
      field<Report>("listed_rankings", F::answer, "count", "optimal rankings listed (list_limit at most)",
                    [](const Report& r) { return r.result.optima.size(); }),
      field<Report>("consensus", F::answer, "", "the first optimal ranking (the best found when not exact)",
                    [](const Report& r) { return named(r.result.optima.front(), r.counts.names); })
          .shown(),
      field<Report>("components", F::answer, "count", "Condorcet components",
                    [](const Report& r) { return r.result.component_sizes.size(); }),
      field<Report>("largest_component", F::answer, "count", "alternatives of the largest component",
                    [](const Report& r) {
                      int largest = 0;
                      for (int size : r.result.component_sizes) largest = std::max(largest, size);
                      return largest;
                    }),
      field<Report>("component_methods", F::outcome, "", "what solved each component, in ranking order",
                    [](const Report& r) { return TextList(r.result.component_methods); }),
      field_where<Report>(
          "dp_layers_s", F::timing, "s", "in the subset DPs' tables (set up and filled)",
          [](const Report& r) { return r.result.dp_layers_s > 0; },
          [](const Report& r) { return r.result.dp_layers_s; })
          .formerly("dp_layers_seconds"),
  };
  return fields;
}

}  // namespace kollective::kemeny
