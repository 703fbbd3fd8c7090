/// \file Elections.cpp
/// Profiles (PrefLib files, rank arrays, generators), the pairwise matrix, Schulze and Kemeny.

#include <Kokkos_Core.hpp>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <string>

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/python/bindings/Bindings.hpp"
#include "kollective/python/bindings/Options.hpp"

namespace kollective::python {
namespace {

namespace prefs = preferences;
using Space = Kokkos::DefaultExecutionSpace;

/// A profile from ranks[v][a], the place of alternative a in ballot v (smaller is preferred,
/// equal places tie, negative: unranked), and each ballot's weight.
prefs::Profile profile_from_ranks(const HostArray<std::int64_t, 2>& ranks, const HostArray<std::int64_t, 1>& weights,
                                  std::vector<std::string> names, std::string title) {
  const std::int64_t voters = ranks.shape(0), n = ranks.shape(1);
  if (static_cast<std::int64_t>(weights.shape(0)) != voters) {
    fail("rankings: ", voters, " ballots but ", weights.shape(0), " weights");
  }
  prefs::Profile profile;
  profile.alternatives = static_cast<int>(n);
  profile.names = std::move(names);
  profile.title = std::move(title);
  profile.ballots.reserve(voters);
  std::vector<std::pair<std::int64_t, int>> placed;
  for (std::int64_t v = 0; v < voters; ++v) {
    placed.clear();
    for (std::int64_t a = 0; a < n; ++a) {
      if (ranks(v, a) >= 0) placed.emplace_back(ranks(v, a), static_cast<int>(a));
    }
    std::sort(placed.begin(), placed.end());
    prefs::Ballot ballot;
    ballot.count = weights(v);
    for (std::size_t k = 0; k < placed.size(); ++k) {
      if (k == 0 || placed[k].first != placed[k - 1].first) ballot.groups.emplace_back();
      ballot.groups.back().push_back(placed[k].second);
    }
    if (ballot.groups.empty()) fail("rankings: ballot ", v, " ranks no alternative");
    profile.ballots.push_back(std::move(ballot));
  }
  prefs::validate(profile, "rankings");
  profile.merge_identical();
  return profile;
}

/// A profile's ballots as profile_from_ranks takes them: ranks[v][a], the place of a's group in
/// ballot v (-1: unranked), and each ballot's weight; what a pickled Profile holds.
nb::tuple profile_ranks(const prefs::Profile& profile) {
  const std::size_t voters = profile.ballots.size(), n = static_cast<std::size_t>(profile.alternatives);
  std::vector<std::int64_t> ranks(voters * n, -1), weights(voters);
  for (std::size_t v = 0; v < voters; ++v) {
    weights[v] = profile.ballots[v].count;
    for (std::size_t g = 0; g < profile.ballots[v].groups.size(); ++g) {
      for (const int a : profile.ballots[v].groups[g])
        ranks[v * n + static_cast<std::size_t>(a)] = static_cast<std::int64_t>(g);
    }
  }
  return nb::make_tuple(to_numpy(std::move(ranks), {voters, n}), to_numpy(std::move(weights), {voters}));
}

/// The array as the library's host counts (preferences::counts_from_view: checked, named 1..n).
prefs::PairwiseCounts counts_from(const HostArray<std::uint32_t, 2>& doubled) {
  const Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> view(
      doubled.data(), doubled.shape(0), doubled.shape(1));
  return prefs::counts_from_view<Kokkos::DefaultHostExecutionSpace>(view, "pairwise matrix");
}

nb::dict schulze(const HostArray<std::uint32_t, 2>& doubled, const nb::dict& given, bool keep_paths) {
  schulze::Options options = options_from("schulze", schulze::option_fields(), given, schulze::check);
  options.keep_paths = keep_paths;
  const prefs::PairwiseCounts counts = counts_from(doubled);
  auto [result, seconds] = solve_timed([&] {
    Space space;
    return schulze::solve(space, prefs::to_device(space, counts), options);
  });
  const std::size_t n = counts.alternatives;
  nb::dict out = result_dict(schulze::result_fields(), schulze::Report{result, options, counts.names});
  out["solve_s"] = seconds;
  out["winners"] = result.winners;
  out["ranking_head"] = std::vector<std::vector<int>>(
      result.ranking.begin(), result.ranking.begin() + std::min(result.ranking.size(), schulze::ranking_head_groups));
  out["ranking"] = result.ranking;
  out["beaten"] = result.beaten;
  out["doubled_paths"] = nb::none();
  if (keep_paths) out["doubled_paths"] = to_numpy(std::move(result.paths), {n, n});
  return out;
}

nb::dict kemeny(const HostArray<std::uint32_t, 2>& doubled, const nb::dict& given) {
  const kemeny::Options options = options_from("kemeny", kemeny::option_fields(), given, kemeny::check);
  const prefs::PairwiseCounts counts = counts_from(doubled);
  const auto [result, seconds] = solve_timed([&] { return kemeny::solve(Space(), counts, options); });
  nb::dict out = result_dict(kemeny::result_fields(), kemeny::Report{result, counts});
  out["solve_s"] = seconds;
  out["consensus"] = result.optima.front();
  out["rankings"] = result.optima;
  out["component_sizes"] = result.component_sizes;
  out["lp_missing"] = result.lp_missing;
  return out;
}

}  // namespace

void bind_elections(nb::module_& m) {
  nb::class_<prefs::Profile>(m, "Profile", "A preference profile: weighted ballots with ties")
      .def_ro("alternatives", &prefs::Profile::alternatives)
      .def_ro("names", &prefs::Profile::names)
      .def_ro("title", &prefs::Profile::title)
      .def_prop_ro("voters", &prefs::Profile::total_weight)
      .def_prop_ro("distinct_ballots", [](const prefs::Profile& p) { return p.ballots.size(); })
      .def_prop_ro("data_type", [](const prefs::Profile& p) { return std::string(prefs::to_string(p.data_type())); })
      .def("__repr__", [](const prefs::Profile& p) {
        return "Profile(" + std::to_string(p.alternatives) + " alternatives, " + std::to_string(p.total_weight()) +
               " voters, " + std::to_string(p.ballots.size()) + " distinct ballots)";
      });
  m.def("read_preflib", &prefs::read_preflib, nb::arg("path"));
  m.def("write_preflib", &prefs::write_preflib_file, nb::arg("profile"), nb::arg("path"));
  m.def("profile_from_ranks", &profile_from_ranks, nb::arg("ranks"), nb::arg("weights"), nb::arg("names"),
        nb::arg("title") = "");
  m.def("profile_ranks", &profile_ranks, nb::arg("profile"));
  m.def("generate_profile", &prefs::generate_profile, nb::arg("model"), nb::arg("alternatives"), nb::arg("voters"),
        nb::arg("phi"), nb::arg("seed"));
  m.def(
      "doubled_pairwise",
      [](const prefs::Profile& profile) {
        prefs::PairwiseCounts counts = prefs::pairwise_reference(profile);
        const std::size_t n = counts.alternatives;
        return to_numpy(std::move(counts.doubled), {n, n});
      },
      nb::arg("profile"), "2 d[i][j]: twice the voters preferring i to j (a tie gives each side 1)");
  m.def(
      "read_pairwise_csv",
      [](const std::string& path) {
        prefs::PairwiseCounts counts = prefs::read_pairwise_csv(path);
        const std::size_t n = counts.alternatives;
        return nb::make_tuple(to_numpy(std::move(counts.doubled), {n, n}), counts.names);
      },
      nb::arg("path"));
  m.def("schulze", &schulze, nb::arg("doubled"), nb::arg("options"), nb::arg("keep_paths"));
  m.def("schulze_options", [] { return option_table(describe(schulze::option_fields())); });
  m.def("schulze_fields", [] { return field_table(rules_of(schulze::result_fields())); });
  m.def("kemeny", &kemeny, nb::arg("doubled"), nb::arg("options"));
  m.def("kemeny_options", [] { return option_table(describe(kemeny::option_fields())); });
  m.def("kemeny_fields", [] { return field_table(rules_of(kemeny::result_fields())); });
}

}  // namespace kollective::python
