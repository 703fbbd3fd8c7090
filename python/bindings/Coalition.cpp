/// \file Coalition.cpp
/// Optimal coalition structures from a characteristic function given as values[mask].

#include <Kokkos_Core.hpp>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/python/bindings/Bindings.hpp"
#include "kollective/python/bindings/Options.hpp"

namespace kollective::python {
namespace {

using Space = Kokkos::DefaultExecutionSpace;

/// The game of values[mask] (2^n entries, v[0] = 0), read in place (the solve copies it to the
/// device), checked as the CLI checks its files.
coalition::Values game_values(const HostArray<double, 1>& values, bool single_precision) {
  const std::size_t size = values.shape(0);
  if (size < 2 || (size & (size - 1)) != 0) {
    fail("values: ", size, " entries; a game of n agents has 2^n (one per coalition, indexed by its bit mask)");
  }
  int agents = 0;
  while ((std::size_t{1} << agents) < size) ++agents;
  if (agents > coalition::max_agents) fail("values: a game of ", agents, " agents; at most ", coalition::max_agents);
  const coalition::Values game(agents, values.data());
  coalition::validate_values(game, "values", single_precision);
  return game;
}

nb::dict solve(const HostArray<double, 1>& values, const nb::dict& given) {
  const auto options = options_from("coalition", coalition::option_fields(), given, coalition::check);
  warn_ignored("coalition", coalition::ignored_settings(options));
  const bool single = coalition::solve_precision(options) == Precision::float32;
  const coalition::Values game = game_values(values, single);
  const auto [result, seconds] =
      solve_timed([&] { return coalition::Impl::solve_checked(Space(), game, options, nullptr); });
  std::vector<std::string> names;
  for (int a = 1; a <= game.agents; ++a) names.push_back(std::to_string(a));
  nb::dict out = result_dict(coalition::result_fields(), coalition::Report{result, options, names});
  out["solve_s"] = seconds;
  std::vector<std::vector<int>> structure;  // agents 0..n-1, as Python counts them
  for (const std::uint64_t mask : result.structure) {
    structure.emplace_back();
    for (int agent = 0; agent < game.agents; ++agent) {
      if (mask >> agent & 1) structure.back().push_back(agent);
    }
  }
  out["structure"] = structure;
  out["masks"] = result.structure;
  return out;
}

}  // namespace

void bind_coalition(nb::module_& m) {
  m.def("coalition", &solve, nb::arg("values"), nb::arg("options"));
  m.def("coalition_options", [] { return option_table(describe(coalition::option_fields())); });
  m.def("coalition_fields", [] { return field_table(rules_of(coalition::result_fields())); });
  m.def(
      "generate_game",
      [](const std::string& model, int agents, std::uint64_t seed) {
        require_kokkos();  // its OpenMP threads would hang a forked child
        coalition::Game game = coalition::generate_game(model, agents, seed);
        const std::size_t size = game.values.size();
        return to_numpy(std::move(game.values), {size});
      },
      nb::arg("model"), nb::arg("agents"), nb::arg("seed"));
}

}  // namespace kollective::python
