#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"

#include <algorithm>
#include <cmath>

#include "kollective/core/Error.hpp"

namespace kollective::coalition {

double structure_value(Values values, const Structure& structure) {
  double total = 0;
  for (auto coalition : structure) total += values.v[coalition];
  return total;
}

void check_partition(int agents, const Structure& structure) {
  std::uint64_t covered = 0;
  for (auto coalition : structure) {
    if (coalition == 0) fail("coalition structure has an empty coalition");
    if (covered & coalition) fail("coalition structure has overlapping coalitions");
    covered |= coalition;
  }
  if (covered != (agents == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << agents) - 1)) {
    fail("coalition structure does not cover every agent");
  }
}

double value_tolerance(bool single_precision) { return single_precision ? 1e-4 : 1e-9; }

void check_structure_value(double structure, const Result& result) {
  if (std::fabs(structure - result.value) >
      value_tolerance(result.precision == Precision::float32) * std::max(1.0, std::fabs(result.value))) {
    fail("internal error: the recovered structure is worth ", structure, ", not the optimum ", result.value);
  }
}

void check_result(Values values, const Result& result) {
  check_partition(values.agents, result.structure);
  check_structure_value(structure_value(values, result.structure), result);
}

}  // namespace kollective::coalition
