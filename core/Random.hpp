#ifndef KOLLECTIVE_CORE_RANDOM_HPP
#define KOLLECTIVE_CORE_RANDOM_HPP

/// \file Random.hpp
/// Seeded randomness. Host generators use std::mt19937_64 (reproducible for a given seed on
/// every platform, since the engine is fully specified). Device code uses a counter-based hash,
/// so a value depends only on (seed, counter) and every backend draws the same numbers.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <random>

namespace kollective {

/// Host engine; the distributions used with it are implemented by us (std's are not portable).
using HostRng = std::mt19937_64;

/// SplitMix64 finaliser: a bijective 64-bit mix with good avalanche.
KOKKOS_FORCEINLINE_FUNCTION constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// hash_draw with its seed mixed already (mixed_seed = mix64(seed)): for a stream's many draws.
KOKKOS_FORCEINLINE_FUNCTION constexpr std::uint64_t hash_draw_mixed(std::uint64_t mixed_seed, std::uint64_t counter) {
  return mix64(mixed_seed ^ mix64(counter + 0x632be59bd9b4e019ull));
}

/// The counter-th 64-bit value of stream `seed`.
KOKKOS_FORCEINLINE_FUNCTION constexpr std::uint64_t hash_draw(std::uint64_t seed, std::uint64_t counter) {
  return hash_draw_mixed(mix64(seed), counter);
}

/// Uniform integer in [0, bound) from a 64-bit draw (multiply-shift; bias below 2^-32 for
/// bounds under 2^32).
KOKKOS_FORCEINLINE_FUNCTION constexpr std::uint64_t bounded(std::uint64_t draw, std::uint64_t bound) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(draw) * bound) >> 64);
}

/// Uniform integer in [0, bound) from a host engine (exact, by rejection).
inline std::uint64_t uniform_below(HostRng& rng, std::uint64_t bound) {
  const std::uint64_t limit = bound == 0 ? 0 : (~std::uint64_t{0} - bound + 1) % bound;
  std::uint64_t draw = rng();
  while (draw < limit) draw = rng();
  return bound == 0 ? 0 : draw % bound;
}

/// Uniform double in [0, 1) with 53 random bits.
inline double uniform_unit(HostRng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Standard normal draw by Box-Muller from two uniforms, so the stream is fixed by the seed.
inline double standard_normal(HostRng& rng) {
  const double u1 = 1.0 - uniform_unit(rng), u2 = uniform_unit(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace kollective

#endif
