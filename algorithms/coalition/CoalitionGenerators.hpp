#ifndef KOLLECTIVE_ALGORITHMS_COALITION_GENERATORS_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_GENERATORS_HPP

/// \file CoalitionGenerators.hpp
/// Seeded characteristic functions: the value distributions of the CSG literature, as the
/// ODP-IP release (Rahwan et al.; `release_March_2014`, inputOutput/Input.java) and the FACS
/// release (Taguelmimt et al.; `release_September_2020`, the same file) generate them, parameters,
/// scaling and rounding included. Every value is drawn from a counter-based stream keyed by
/// (seed, coalition), so a coalition's value depends on nothing else: the table is made in
/// parallel on any execution space and is the same bit for bit on every backend and rank count.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

namespace kollective::coalition {

/// IDP^G's benchmark values: v(mask) = U(0, 1) as float from Marsaglia's multiply-with-carry
/// (z = w = seed), filled in mask order 1, 2, ...; v(0) = 0. Sequential, on the host: the
/// definition, which generate_values("idpg") makes in parallel by jumping ahead.
Game idpg_benchmark(int agents, std::uint32_t seed);

/// The value distributions, by config name (docs/configuration.md gives each one's formula):
/// ODP-IP's ten (uniform, normal, modified_uniform, modified_normal, exponential, beta, gamma,
/// ndcs, agent_uniform, agent_normal), FACS's seven per-size ones (chi_square, weibull, f,
/// cauchy, student_t, zipf, pascal), and idpg, IDP^G's benchmark generator (a 32-bit seed).
const std::vector<std::string>& value_models();

/// Fills `values` (2^agents entries, in the execution space's memory) with v of `model`, seeded;
/// v(empty) = 0. Fails on an unknown model or a size the table does not have.
template <class ExecSpace>
void generate_values(const ExecSpace& space, const std::string& model, int agents, std::uint64_t seed,
                     const Kokkos::View<double*, typename ExecSpace::memory_space>& values);

/// The same values as a Game, made on the host's threads.
Game generate_game(const std::string& model, int agents, std::uint64_t seed);
/// generate_game("uniform", ...) and generate_game("normal", ...).
Game uniform_game(int agents, std::uint64_t seed);
Game normal_game(int agents, std::uint64_t seed);

}  // namespace kollective::coalition

#endif
