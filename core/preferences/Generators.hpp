#ifndef KOLLECTIVE_CORE_PREFERENCES_GENERATORS_HPP
#define KOLLECTIVE_CORE_PREFERENCES_GENERATORS_HPP

/// \file Generators.hpp
/// Seeded profile generators (host). The same seed gives the same profile everywhere.

#include <cstdint>

#include <string>

#include "kollective/core/preferences/Profile.hpp"

namespace kollective::preferences {

/// Impartial culture: every voter draws a uniformly random strict order.
Profile impartial_culture(int alternatives, std::int64_t voters, std::uint64_t seed);

/// Mallows model around the order 1 > 2 > ... > n with dispersion phi in [0, 1] (0: every voter
/// casts the reference order; 1: impartial culture), drawn by repeated insertion.
Profile mallows(int alternatives, std::int64_t voters, double phi, std::uint64_t seed);

/// Two opposite Mallows models mixed: ceil(voters / 2) voters around 1 > 2 > ... > n and the rest
/// around n > ... > 1, same phi: a contested election, usually one Condorcet component of n
/// (the exact-Kemeny benchmarks of the LP literature).
Profile mallows_mixture(int alternatives, std::int64_t voters, double phi, std::uint64_t seed);

/// The Kemeny benchmark profiles of Rico et al. (2023): d distinct uniformly random strict orders,
/// d uniform in [1, min(m, n!)], with random positive integer weights summing to m; a profile with
/// a Condorcet winner is rejected and redrawn (fails after `max_attempts`).
Profile kemeny_benchmark(int alternatives, std::int64_t m, std::uint64_t seed, int max_attempts = 1000);

/// The profile of a host generator by name: "impartial_culture", "mallows" or "mallows_mixture"
/// (use `phi`) or "kemeny_benchmark" (`voters` is its total weight m).
Profile generate_profile(const std::string& model, int alternatives, std::int64_t voters, double phi,
                         std::uint64_t seed);

/// True when some alternative beats every other one by a strict pairwise majority.
bool has_condorcet_winner(const Profile& profile);

}  // namespace kollective::preferences

#endif
