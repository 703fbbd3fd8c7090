#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>

#include "algorithms/coalition/Coalition.hpp"
#include "core/Error.hpp"
#include "core/Random.hpp"

namespace kollective::coalition {

namespace {

Game empty_game(int agents) {
  if (agents < 1 || agents > 40) fail("coalition games need 1..40 agents, got ", agents);
  Game game;
  game.agents = agents;
  game.values.assign(std::size_t{1} << agents, 0.0);
  for (int i = 1; i <= agents; ++i) game.names.push_back(std::to_string(i));
  return game;
}

/// Standard normal from two uniforms (Box-Muller), so the stream is fully specified by the seed.
double standard_normal(HostRng& rng) {
  const double u1 = 1.0 - uniform_unit(rng), u2 = uniform_unit(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace

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

Game uniform_game(int agents, std::uint64_t seed) {
  Game game = empty_game(agents);
  HostRng rng(seed);
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    game.values[mask] = __builtin_popcountll(mask) * uniform_unit(rng);
  }
  return game;
}

Game normal_game(int agents, std::uint64_t seed) {
  Game game = empty_game(agents);
  HostRng rng(seed);
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    game.values[mask] = __builtin_popcountll(mask) * (10.0 + 0.1 * standard_normal(rng));
  }
  return game;
}

Game read_rahwan_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot open coalition values '", path, "'");
  std::vector<double> values;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    char* end = nullptr;
    const double value = std::strtod(line.c_str() + begin, &end);
    if (end == line.c_str() + begin || line.find_first_not_of(" \t\r", end - line.c_str()) != std::string::npos) {
      fail_at(path, number, "'", line, "' is not a number");
    }
    if (!std::isfinite(value)) fail_at(path, number, "value is not finite");
    if (values.size() >= (std::size_t{1} << 40)) fail_at(path, number, "more than 2^40 values");
    values.push_back(value);
  }
  int agents = 0;
  while ((std::size_t{1} << agents) < values.size()) ++agents;
  if (values.empty() || (std::size_t{1} << agents) != values.size() || agents < 1) {
    fail_at(path, 0, values.size(), " values: a game of n agents has 2^n lines (the first, v(empty), is 0)");
  }
  if (values[0] != 0.0) fail_at(path, 1, "v(empty) must be 0");
  Game game = empty_game(agents);
  game.values = std::move(values);
  return game;
}

void write_rahwan_text(const Game& game, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  for (double value : game.values) std::fprintf(out, "%.17g\n", value);
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

double structure_value(const Game& game, const Structure& structure) {
  double total = 0;
  for (auto coalition : structure) total += game.values[coalition];
  return total;
}

void check_partition(int agents, const Structure& structure) {
  std::uint64_t covered = 0;
  for (auto coalition : structure) {
    if (coalition == 0) fail("coalition structure has an empty coalition");
    if (covered & coalition) fail("coalition structure has overlapping coalitions");
    covered |= coalition;
  }
  if (covered != (agents == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << agents) - 1)) {
    fail("coalition structure does not cover every agent");
  }
}

std::string format_structure(const Structure& structure, const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t k = 0; k < structure.size(); ++k) {
    text += k ? ", {" : "{";
    bool first = true;
    for (int agent = 0; agent < 64; ++agent) {
      if (structure[k] >> agent & 1) {
        text += (first ? "" : ", ") + (agent < static_cast<int>(names.size()) ? names[agent] : std::to_string(agent + 1));
        first = false;
      }
    }
    text += "}";
  }
  return text;
}

BruteForceResult brute_force(const Game& game) {
  if (game.agents > 12) fail("coalition brute force is limited to 12 agents (got ", game.agents, ")");
  BruteForceResult best;
  best.value = -INFINITY;
  Structure current;
  // Every set partition: the lowest unassigned agent joins a new coalition with any subset of the rest.
  std::function<void(std::uint64_t, double)> visit = [&](std::uint64_t rest, double value) {
    if (rest == 0) {
      if (value > best.value) {
        best.value = value;
        best.structure = current;
      }
      return;
    }
    const std::uint64_t lowest = rest & (~rest + 1);
    const std::uint64_t others = rest ^ lowest;
    for (std::uint64_t sub = others;; sub = (sub - 1) & others) {
      const std::uint64_t coalition = lowest | sub;
      current.push_back(coalition);
      visit(rest ^ coalition, value + game.values[coalition]);
      current.pop_back();
      if (sub == 0) break;
    }
  };
  visit((std::uint64_t{1} << game.agents) - 1, 0.0);
  std::sort(best.structure.begin(), best.structure.end());
  return best;
}

double serial_dp(const Game& game) {
  if (game.agents > 24) fail("the serial coalition DP is limited to 24 agents (got ", game.agents, ")");
  std::vector<double> f = game.values;
  for (std::uint64_t set = 1; set < f.size(); ++set) {
    const std::uint64_t lowest = set & (~set + 1), others = set ^ lowest;
    // Parts holding the lowest agent, other than the whole set: each unordered split once.
    for (std::uint64_t sub = (others - 1) & others; sub != others; sub = (sub - 1) & others) {
      const std::uint64_t part = lowest | sub;
      f[set] = std::max(f[set], f[part] + f[set ^ part]);
      if (sub == 0) break;
    }
  }
  return f.back();
}

}  // namespace kollective::coalition

namespace kollective::coalition {

Method parse_method(const std::string& name) {
  if (name == "dp") return Method::dp;
  if (name == "idp") return Method::idp;
  fail("unknown coalition method '", name, "' (dp or idp)");
}

const char* to_string(Method method) { return method == Method::dp ? "dp" : "idp"; }

double split_count(int n, Method method) {
  // Coalitions of size c number C(n, c); each has C(c, a) ordered splits with a part of size a.
  double total = 0, binomial_nc = 1;
  for (int c = 1; c <= n; ++c) {
    binomial_nc = binomial_nc * (n - c + 1) / c;
    double binomial_ca = 1, splits = 0;
    for (int a = 1; a < c; ++a) {
      binomial_ca = binomial_ca * (c - a + 1) / a;
      if (method == Method::dp || idp_allows(n, c, a)) splits += binomial_ca;
    }
    total += binomial_nc * splits / 2;  // unordered
  }
  return total;
}

}  // namespace kollective::coalition
