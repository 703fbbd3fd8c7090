#ifndef KOLLECTIVE_ALGORITHMS_COALITION_METRICS_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_METRICS_HPP

/// \file CoalitionMetrics.hpp
/// The value of a coalition structure, and checks that a result is a partition worth its optimum.

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// Value of a structure: sum of v over its coalitions.
double structure_value(Values values, const Structure& structure);
/// Fails unless the coalitions are non-empty, disjoint and cover all agents.
void check_partition(int agents, const Structure& structure);

/// Relative tolerance between optima summed in different orders: 1e-9 for double values, 1e-4
/// for float.
double value_tolerance(bool single_precision);
/// Fails unless the result's structure is a partition whose value is its optimum (within
/// value_tolerance): the structure recovery agrees with the DP. The driver and Python check every
/// solve's result with it.
void check_result(Values values, const Result& result);
/// check_result's second half, given the structure's value: within value_tolerance of the optimum.
void check_structure_value(double structure, const Result& result);

}  // namespace kollective::coalition

#endif
