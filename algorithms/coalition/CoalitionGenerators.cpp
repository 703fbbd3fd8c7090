#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "kollective/core/Error.hpp"
#include "kollective/core/Random.hpp"

namespace kollective::coalition {

Game idpg_benchmark(int agents, std::uint32_t seed) {
  Game game = empty_game(agents);
  std::uint32_t z = seed, w = seed;
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    z = 36969u * (z & 65535u) + (z >> 16);
    w = 18000u * (w & 65535u) + (w >> 16);
    const std::uint32_t r = (z << 16) + w;
    game.values[mask] = static_cast<double>(static_cast<float>(static_cast<double>(r) / 4294967296.0));
  }
  return game;
}

namespace {

double size_of(std::size_t mask) { return static_cast<double>(Kokkos::Experimental::popcount_builtin(mask)); }
double exponential(HostRng& rng) { return -std::log(1.0 - uniform_unit(rng)); }
bool with_probability(HostRng& rng, double p) { return uniform_unit(rng) < p; }

/// Fills v(mask) = draw(mask) for every non-empty coalition, in mask order.
template <class Draw>
Game fill_game(int agents, Draw draw) {
  Game game = empty_game(agents);
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) game.values[mask] = draw(mask);
  return game;
}

/// Agent-based models: each agent i has a parameter p_i; v(C) sums one draw per member.
template <class Parameter, class Member>
Game agent_based_game(int agents, std::uint64_t seed, Parameter parameter, Member member) {
  HostRng rng(seed);
  std::vector<double> p(agents);
  for (auto& value : p) value = parameter(rng);
  return fill_game(agents, [&](std::size_t mask) {
    double total = 0;
    for (std::size_t rest = mask; rest != 0; rest &= rest - 1)
      total += member(rng, p[Kokkos::Experimental::countr_zero_builtin(rest)]);
    return total;
  });
}

}  // namespace

Game uniform_game(int agents, std::uint64_t seed) {
  HostRng rng(seed);
  return fill_game(agents, [&](std::size_t mask) { return size_of(mask) * uniform_unit(rng); });
}

Game normal_game(int agents, std::uint64_t seed) {
  HostRng rng(seed);
  return fill_game(agents, [&](std::size_t mask) { return size_of(mask) * (10.0 + 0.1 * standard_normal(rng)); });
}

const std::vector<std::string>& value_models() {
  static const std::vector<std::string> models = {
      "idpg", "uniform", "normal", "modified_uniform", "modified_normal", "exponential",
      "beta", "gamma",   "ndcs",   "agent_uniform",    "agent_normal"};
  return models;
}

Game generate_game(const std::string& model, int agents, std::uint64_t seed) {
  HostRng rng(seed);
  Game game;
  if (model == "idpg") {
    if (seed > 0xffffffffu) fail("the idpg generator takes a 32-bit seed (got ", seed, ")");
    game = idpg_benchmark(agents, static_cast<std::uint32_t>(seed));
  } else if (model == "uniform") {
    game = uniform_game(agents, seed);
  } else if (model == "normal") {
    game = normal_game(agents, seed);
  } else if (model == "modified_uniform") {  // U(0, 10|C|), plus U(0, 50) with probability 0.2
    game = fill_game(agents, [&](std::size_t mask) {
      const double value = 10.0 * size_of(mask) * uniform_unit(rng);
      return with_probability(rng, 0.2) ? value + 50.0 * uniform_unit(rng) : value;
    });
  } else if (model == "modified_normal") {  // |C| N(10, 0.1), plus N(25, 0.1) with probability 0.2
    game = fill_game(agents, [&](std::size_t mask) {
      const double value = size_of(mask) * (10.0 + 0.1 * standard_normal(rng));
      return with_probability(rng, 0.2) ? value + 25.0 + 0.1 * standard_normal(rng) : value;
    });
  } else if (model == "exponential") {  // |C| Exp(1)
    game = fill_game(agents, [&](std::size_t mask) { return size_of(mask) * exponential(rng); });
  } else if (model == "beta") {  // |C| Beta(0.5, 0.5): the arcsine law, sin^2(pi U / 2)
    game = fill_game(agents, [&](std::size_t mask) {
      const double s = std::sin(1.5707963267948966 * uniform_unit(rng));
      return size_of(mask) * s * s;
    });
  } else if (model == "gamma") {  // |C| Gamma(shape 2, scale 2): the sum of two Exp(mean 2)
    game = fill_game(agents,
                     [&](std::size_t mask) { return size_of(mask) * 2.0 * (exponential(rng) + exponential(rng)); });
  } else if (model == "ndcs") {  // N(|C|, sqrt|C|), redrawn while <= 0
    game = fill_game(agents, [&](std::size_t mask) {
      double value = 0;
      while (value <= 0) value = size_of(mask) + std::sqrt(size_of(mask)) * standard_normal(rng);
      return value;
    });
  } else if (model == "agent_uniform") {  // p_i ~ U(0, 10); v(C) = sum of U(0, 2 p_i)
    game = agent_based_game(
        agents, seed, [](HostRng& r) { return 10.0 * uniform_unit(r); },
        [](HostRng& r, double p) { return 2.0 * p * uniform_unit(r); });
  } else if (model == "agent_normal") {  // p_i ~ N(10, 0.1); v(C) = sum of max(0, N(p_i, 0.1))
    game = agent_based_game(
        agents, seed, [](HostRng& r) { return 10.0 + 0.1 * standard_normal(r); },
        [](HostRng& r, double p) { return std::max(0.0, p + 0.1 * standard_normal(r)); });
  } else {
    std::string known;
    for (const auto& name : value_models()) known += (known.empty() ? "" : ", ") + name;
    fail("unknown coalition value model '", model, "' (", known, ")");
  }
  validate_values(game, model + " generator");
  return game;
}

}  // namespace kollective::coalition
