#ifndef KOLLECTIVE_ALGORITHMS_COALITION_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_TYPES_HPP

/// \file CoalitionTypes.hpp
/// Coalition structure generation: a characteristic function v over the 2^n coalitions of n
/// agents (bit i = agent i + 1), and the partition of the agents maximising the sum of values.
/// Host pieces: generators, brute force over all set partitions, structure helpers.

#include <cstdint>
#include <string>
#include <vector>

namespace kollective::coalition {

/// v[mask] for every coalition, v[0] = 0.
struct Game {
  int agents = 0;
  std::vector<double> values;  ///< 2^agents entries
  std::vector<std::string> names;
};

using Structure = std::vector<std::uint64_t>;  ///< coalitions as masks, ascending

/// IDP^G's benchmark values: v(mask) = U(0, 1) as float from Marsaglia's multiply-with-carry
/// (z = w = seed), filled in mask order 1, 2, ...; v(0) = 0.
Game idpg_benchmark(int agents, std::uint32_t seed);
/// Rahwan et al.'s uniform distribution: v(C) = |C| * U(0, 1), seeded (mt19937_64).
Game uniform_game(int agents, std::uint64_t seed);
/// Rahwan et al.'s normal distribution: v(C) = |C| * N(10, 0.1), seeded.
Game normal_game(int agents, std::uint64_t seed);

/// Rahwan's text format: 2^n lines, line x holds v(mask x - 1) (bit i = agent i + 1). Values must
/// be finite; v(empty) must be 0; errors name the file and line.
Game read_rahwan_text(const std::string& path);
void write_rahwan_text(const Game& game, const std::string& path);

/// Value of a structure: sum of v over its coalitions.
double structure_value(const Game& game, const Structure& structure);
/// Fails unless the coalitions are non-empty, disjoint and cover all agents.
void check_partition(int agents, const Structure& structure);
/// "{1, 2}, {3}" with names (agent numbers by default).
std::string format_structure(const Structure& structure, const std::vector<std::string>& names);

/// The optimum by enumerating every set partition (serial reference, n <= 12).
struct BruteForceResult {
  double value = 0;
  Structure structure;
};
BruteForceResult brute_force(const Game& game);

/// The plain serial DP over subsets, every split (the reference for the device solvers: same
/// sums, same maxima, so the same double result bit for bit). Returns f(grand coalition).
double serial_dp(const Game& game);

}  // namespace kollective::coalition

#endif
