#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kollective/algorithms/kemeny/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/KemenyLP.hpp"
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
  return lp_available() ? 12 : dp_max_alternatives;
}

double dp_estimated_seconds(int n, bool on_host) { return n * std::ldexp(1.0, n) / (on_host ? 1.3e8 : 1.7e11); }

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
                    "auto: seconds for each component's branch and cut")
          .noting("0: no limit"),
      flag_option("reduce", &Options::reduce, "auto: fix the pairs the data reduction proves"),
      flag_option("count", &Options::count, "auto: list and count the optima (false: one optimum)"),
  };
  return fields;
}

std::optional<OptionProblem> check(const Options& options) { return check_fields(options, option_fields()); }

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("kemeny: ", problem->option, " ", problem->problem);
}

}  // namespace kollective::kemeny
