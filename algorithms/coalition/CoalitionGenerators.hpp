#ifndef KOLLECTIVE_ALGORITHMS_COALITION_GENERATORS_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_GENERATORS_HPP

/// \file CoalitionGenerators.hpp
/// Seeded characteristic functions: the value distributions of the CSG literature.

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// IDP^G's benchmark values: v(mask) = U(0, 1) as float from Marsaglia's multiply-with-carry
/// (z = w = seed), filled in mask order 1, 2, ...; v(0) = 0.
Game idpg_benchmark(int agents, std::uint32_t seed);
/// Rahwan et al.'s uniform distribution: v(C) = |C| * U(0, 1), seeded (mt19937_64).
Game uniform_game(int agents, std::uint64_t seed);
/// Rahwan et al.'s normal distribution: v(C) = |C| * N(10, 0.1), seeded.
Game normal_game(int agents, std::uint64_t seed);

/// The standard value distributions of Rahwan et al. and their successors: uniform, normal,
/// modified_uniform, modified_normal, exponential, beta, gamma, ndcs, agent_uniform,
/// agent_normal; and idpg, IDP^G's benchmark generator (its seed is 32-bit).
const std::vector<std::string>& value_models();
/// v for `model`, seeded; v(empty) = 0; fails on an unknown model or a non-finite draw.
Game generate_game(const std::string& model, int agents, std::uint64_t seed);

}  // namespace kollective::coalition

#endif
