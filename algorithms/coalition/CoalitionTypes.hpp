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

/// The standard value distributions of the CSG literature (Rahwan et al.; ALGORITHMS.md):
/// uniform, normal, modified_uniform, modified_normal, exponential, beta, gamma, ndcs,
/// agent_uniform, agent_normal; and idpg, IDP^G's benchmark generator (its seed is 32-bit).
const std::vector<std::string>& value_models();
/// v for `model`, seeded; v(empty) = 0; fails on an unknown model or a non-finite draw.
Game generate_game(const std::string& model, int agents, std::uint64_t seed);

/// Rahwan's text format: 2^n lines, line x holds v(mask x - 1) (bit i = agent i + 1). Values must
/// be finite; v(empty) must be 0; errors name the file and line.
Game read_rahwan_text(const std::string& path);
void write_rahwan_text(const Game& game, const std::string& path);

/// Kollective's binary format for large n (little-endian): the 8 bytes "KLCSG\0v1", uint32 n,
/// uint32 value bytes (4: float, 8: double), the 2^n values v(mask) in mask order, and a uint64
/// FNV-1a checksum of the value bytes. The reader refuses wrong magic, n outside 1..40, a
/// truncated or over-long file, a checksum mismatch and non-finite values.
Game read_binary(const std::string& path);
void write_binary(const Game& game, const std::string& path, bool single_precision = false);

/// Sparse bids (combinatorial-auction style): a line `items N`, then one bid per line,
/// `price item item ...` (items 1..N, '#' starts a comment). Densified: v(S) = the best bid on
/// exactly the bundle S, 0 when there is none (unsold items are worth 0); the optimal
/// structure is then the revenue-maximising allocation.
Game read_bids(const std::string& path);

/// Fails unless every value is finite, v(empty) = 0 and |v| <= max / 64 of double (of float when
/// `single_precision`), so that sums of up to 40 values stay finite; `source` names the input.
void validate_values(const Game& game, const std::string& source, bool single_precision = false);

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
