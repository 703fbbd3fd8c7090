#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

#include <algorithm>
#include <cmath>

#include "kollective/algorithms/kemeny/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/KemenyLP.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::kemeny {

Method parse_method(const std::string& name) {
  if (name == "auto") return Method::automatic;
  if (name == "dp") return Method::dp;
  if (name == "enumeration") return Method::enumeration;
  if (name == "heuristic") return Method::heuristic;
  fail("unknown Kemeny method '", name, "' (auto, enumeration, dp or heuristic)");
}

const char* to_string(Method method) {
  switch (method) {
    case Method::automatic:
      return "auto";
    case Method::dp:
      return "dp";
    case Method::enumeration:
      return "enumeration";
    case Method::heuristic:
      return "heuristic";
  }
  return "?";
}

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

std::optional<OptionProblem> check(const Options& options) {
  if (options.list_limit < 1 || options.list_limit > max_list_limit) {
    return OptionProblem{"list_limit", "must be in 1.." + std::to_string(max_list_limit) + ", got " +
                                           std::to_string(options.list_limit)};
  }
  if (options.dp_limit < -1 || options.dp_limit > dp_max_alternatives) {
    return OptionProblem{"dp_limit", "must be in -1.." + std::to_string(dp_max_alternatives) + " (-1: auto), got " +
                                         std::to_string(options.dp_limit)};
  }
  if (!(options.time_limit > 0) || !std::isfinite(options.time_limit)) {
    return OptionProblem{"time_limit", "must be a positive number of seconds"};
  }
  return std::nullopt;
}

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("kemeny: ", problem->option, " ", problem->problem);
}

}  // namespace kollective::kemeny
