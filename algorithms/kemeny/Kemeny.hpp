#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_HPP

/// \file Kemeny.hpp
/// Kemeny rank aggregation: exact subset DP on the device, Condorcet decomposition, bounds and
/// heuristics for what is too large to solve exactly, and the `auto` strategy combining them.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/kemeny/KemenyTypes.hpp"
#include "algorithms/kemeny/impl/KemenyDP_Impl.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"

namespace kollective::kemeny {

enum class Method { automatic, enumeration, dp, heuristic };
Method parse_method(const std::string& name);  ///< "auto" | "enumeration" | "dp" | "heuristic"
const char* to_string(Method method);

struct Options {
  Method method = Method::automatic;
  int list_limit = 100;       ///< optimal rankings listed at most (the count is always exact)
  std::uint64_t seed = 1;     ///< for KwikSort
};

struct Result {
  std::uint64_t distance = 0;       ///< doubled (halves come from ties)
  bool exact = false;               ///< distance is the optimum (found by an exact method, or a
                                    ///< heuristic ranking that meets the lower bound)
  std::uint64_t lower_bound = 0;    ///< doubled; equals distance when exact
  std::vector<Ranking> optima;      ///< optimal rankings (exact) or the best ranking found
  bool count_known = false;         ///< every optimum was enumerated: count is exact
  std::uint64_t count = 0;          ///< number of optimal rankings (when count_known)
  bool count_saturated = false;     ///< true when the count exceeds 2^64 - 1
  std::vector<int> component_sizes; ///< Condorcet components, in ranking order
  std::string method;               ///< what ran, e.g. "decomposition+dp"
};

/// Largest n the subset DP accepts (the tables and masks are 64-bit; memory decides below that).
constexpr int dp_max_alternatives = 40;

/// Bytes the subset DP needs for n alternatives with `distance_bytes`-wide distances.
std::int64_t dp_bytes(int n, int distance_bytes);
/// Whether distances of this profile fit in 32 bits (the DP then uses 32-bit entries).
bool distances_fit_32(const Counts& o);
/// Best heuristic ranking: Borda, Copeland and KwikSort, each improved by local search.
Ranking best_heuristic(const Counts& o, std::uint64_t seed);

/// The exact search solve() will do, for estimating its time before it starts: n! rankings by
/// enumeration, and sum of c 2^c subset steps over what the DP solves (the whole profile for
/// `dp`; for `auto`, each Condorcet component of over 2 alternatives whose tables fit in
/// `device_bytes`). Heuristics and bounds are polynomial and not counted.
struct PlannedWork {
  double rankings = 0;
  double dp_steps = 0;
};
PlannedWork planned_work(const Counts& o, const Options& options, std::int64_t device_bytes);

}  // namespace kollective::kemeny

#include "algorithms/kemeny/impl/Kemeny_Impl.hpp"

namespace kollective::kemeny {

/// Largest n the enumeration accepts (it searches all n! rankings).
constexpr int enumeration_max_alternatives = Impl::enumeration_max_alternatives;

/// Exact Kemeny by the subset DP on the whole profile (no decomposition).
template <class ExecSpace>
Result solve_dp(const ExecSpace& space, const Counts& o, const Options& options = {}) {
  return Impl::solve_dp(space, o, options);
}

/// Solves with options.method: `enumeration` (the seed's exhaustive search over n!, n <= 16) or
/// `dp` on the whole profile; `heuristic` (bounds only); `auto`:
/// Condorcet components, each by the DP when it fits in device memory, else by the heuristic.
template <class ExecSpace>
Result solve(const ExecSpace& space, const Counts& o, const Options& options = {}) {
  return Impl::solve(space, o, options);
}

}  // namespace kollective::kemeny

#endif
