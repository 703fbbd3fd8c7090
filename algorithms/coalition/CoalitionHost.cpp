#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>

#include "algorithms/coalition/Coalition.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Parse.hpp"
#include "core/Random.hpp"
#include "core/TextInput.hpp"

namespace kollective::coalition {

namespace {

/// A game of `agents` with every value 0; `source` (a file, or empty) is named when it cannot fit.
Game empty_game(int agents, const std::string& source = "") {
  if (agents < 1 || agents > max_agents) fail("coalition games need 1..", max_agents, " agents, got ", agents);
  // The host keeps v in double and stages a copy for the device: 16 bytes per coalition.
  require_host_memory(std::int64_t{16} << agents, "the coalition values of " + std::to_string(agents) + " agents" +
                                                      (source.empty() ? "" : " in '" + source + "'"));
  Game game;
  game.agents = agents;
  game.values.assign(std::size_t{1} << agents, 0.0);
  for (int i = 1; i <= agents; ++i) game.names.push_back(std::to_string(i));
  return game;
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
    for (std::size_t rest = mask; rest != 0; rest &= rest - 1) total += member(rng, p[Kokkos::Experimental::countr_zero_builtin(rest)]);
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
  static const std::vector<std::string> models = {"idpg",        "uniform", "normal", "modified_uniform", "modified_normal",
                                                  "exponential", "beta",    "gamma",  "ndcs",             "agent_uniform",
                                                  "agent_normal"};
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
    game = fill_game(agents, [&](std::size_t mask) { return size_of(mask) * 2.0 * (exponential(rng) + exponential(rng)); });
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

void validate_values(const Game& game, const std::string& source, bool single_precision) {
  if (game.values.size() != (std::size_t{1} << game.agents)) fail(source, ": ", game.values.size(), " values for ", game.agents, " agents");
  if (game.values[0] != 0.0) fail(source, ": v(empty) must be 0, got ", game.values[0]);
  // A structure's value, and every DP entry, adds up to max_agents values: bounded so that the
  // sums stay finite (and in float, when the values are solved in float).
  const double limit = (single_precision ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max()) / 64;
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    const double value = game.values[mask];
    if (!std::isfinite(value)) fail(source, ": v(", mask, ") = ", value, " is not finite");
    if (std::fabs(value) > limit) {
      fail(source, ": v(", mask, ") = ", value, " is too large", single_precision ? " for values: float" : "",
           " (sums of up to ", max_agents, " values must stay finite: |v| <= ", limit, ")");
    }
  }
}

namespace {

/// Why a text value was refused: "nan", "inf" and "1e999" are numbers, just not finite ones.
std::string why_not_a_value(std::string_view text) {
  const std::string word(text);
  char* end = nullptr;
  const double loose = std::strtod(word.c_str(), &end);
  if (*end == '\0' && !std::isfinite(loose)) return "value is not finite ('" + word + "')";
  return "'" + word + "' is not a finite decimal number";
}

}  // namespace

Game read_rahwan_text(const std::string& path) {
  LineReader reader(path, "coalition values");
  std::vector<double> values;
  std::string line;
  long blank_line = 0;  // the first blank line: only blank lines may follow it
  while (reader.next(line)) {
    const std::string_view text = trim_blanks(line);
    if (text.empty()) {
      if (blank_line == 0) blank_line = reader.number();
      continue;
    }
    if (blank_line != 0) fail_at(path, blank_line, "blank line: line x holds v(x - 1), one value per line");
    const auto value = parse_decimal(text);
    if (!value) fail_at(path, reader.number(), why_not_a_value(text));
    if (values.size() == (std::size_t{1} << max_agents))
      fail_at(path, reader.number(), "more than 2^", max_agents, " values");
    // A file of 2^k + 1 values needs a game of at least 2^(k+1): refuse it when the values
    // reach a size this machine cannot hold, not after reading all of them.
    if (values.size() >= (std::size_t{1} << 20) && (values.size() & (values.size() - 1)) == 0) {
      require_host_memory(static_cast<std::int64_t>(values.size()) * 2 * 16, "the coalition values in '" + path + "'");
    }
    values.push_back(*value);
  }
  int agents = 0;
  while ((std::size_t{1} << agents) < values.size()) ++agents;
  if (values.empty() || (std::size_t{1} << agents) != values.size() || agents < 1) {
    fail_at(path, 0, values.size(), " values: a game of n agents has 2^n lines (the first, v(empty), is 0)");
  }
  if (values[0] != 0.0) fail_at(path, 1, "v(empty) must be 0");
  Game game = empty_game(agents, path);
  game.values = std::move(values);
  validate_values(game, path);
  return game;
}

void write_rahwan_text(const Game& game, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  for (double value : game.values) std::fprintf(out, "%.17g\n", value);
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

namespace {

constexpr char binary_magic[8] = {'K', 'L', 'C', 'S', 'G', '\0', 'v', '1'};
constexpr std::uint64_t binary_header_bytes = 16, binary_checksum_bytes = 8;

/// FNV-1a over bytes, continued from `hash`.
std::uint64_t fnv1a(const unsigned char* bytes, std::size_t count, std::uint64_t hash = 0xcbf29ce484222325ull) {
  for (std::size_t k = 0; k < count; ++k) hash = (hash ^ bytes[k]) * 0x100000001b3ull;
  return hash;
}

template <class T>
T read_scalar(std::istream& in, const std::string& path, const char* what) {
  T value{};
  if (!in.read(reinterpret_cast<char*>(&value), sizeof(T))) fail_at(path, 0, "file ends inside the header (", what, ")");
  return value;
}

}  // namespace

void write_binary(const Game& game, const std::string& path, bool single_precision) {
  std::ofstream out(path, std::ios::binary);
  if (!out) fail("cannot write '", path, "'");
  const std::uint32_t agents = static_cast<std::uint32_t>(game.agents), width = single_precision ? 4 : 8;
  out.write(binary_magic, 8);
  out.write(reinterpret_cast<const char*>(&agents), 4);
  out.write(reinterpret_cast<const char*>(&width), 4);
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (double value : game.values) {
    const float narrow = static_cast<float>(value);
    const char* bytes = single_precision ? reinterpret_cast<const char*>(&narrow) : reinterpret_cast<const char*>(&value);
    hash = fnv1a(reinterpret_cast<const unsigned char*>(bytes), width, hash);
    out.write(bytes, width);
  }
  out.write(reinterpret_cast<const char*>(&hash), 8);
  if (!out.flush()) fail("error while writing '", path, "'");
}

Game read_binary(const std::string& path) {
  std::ifstream in = open_input(path, "coalition values");
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  if (end < 0) fail_at(path, 0, "cannot tell the file's size (binary coalition values must be a regular file)");
  const auto file_bytes = static_cast<std::uint64_t>(end);
  in.seekg(0);
  char magic[8] = {};
  if (!in.read(magic, 8) || !std::equal(magic, magic + 8, binary_magic)) {
    fail_at(path, 0, "not a Kollective binary coalition file (the first 8 bytes must be \"KLCSG\\0v1\")");
  }
  const auto agents = read_scalar<std::uint32_t>(in, path, "agents");
  const auto width = read_scalar<std::uint32_t>(in, path, "value bytes");
  if (agents < 1 || agents > max_agents) fail_at(path, 0, "header says ", agents, " agents; 1..", max_agents, " are supported");
  if (width != 4 && width != 8) fail_at(path, 0, "header says ", width, "-byte values; 4 (float) or 8 (double) are supported");
  const std::uint64_t count = std::uint64_t{1} << agents;
  const std::uint64_t expected = binary_header_bytes + count * width + binary_checksum_bytes;
  if (file_bytes != expected) {
    fail_at(path, 0, "has ", file_bytes, " bytes, but ", agents, " agents with ", width, "-byte values need ", expected,
            file_bytes < expected ? " (truncated)" : " (trailing data)");
  }
  Game game = empty_game(static_cast<int>(agents), path);
  std::vector<unsigned char> chunk(std::size_t{1} << 20);
  std::uint64_t hash = 0xcbf29ce484222325ull, done = 0;
  while (done < count) {
    const std::uint64_t take = std::min<std::uint64_t>(chunk.size() / width, count - done);
    if (!in.read(reinterpret_cast<char*>(chunk.data()), static_cast<std::streamsize>(take * width))) fail_at(path, 0, "read error");
    hash = fnv1a(chunk.data(), take * width, hash);
    for (std::uint64_t k = 0; k < take; ++k) {
      if (width == 4) {
        float value;
        std::memcpy(&value, chunk.data() + k * 4, 4);
        game.values[done + k] = value;
      } else {
        std::memcpy(&game.values[done + k], chunk.data() + k * 8, 8);
      }
    }
    done += take;
  }
  const auto stored = read_scalar<std::uint64_t>(in, path, "checksum");
  if (stored != hash) fail_at(path, 0, "checksum mismatch (the values are corrupt)");
  validate_values(game, path);
  return game;
}

namespace {

/// `items N`, the first line of a bids file: the number of items (agents) in 1..max_agents.
int read_items_line(const std::vector<std::string>& words, const std::string& path, long line) {
  const auto items = words.size() == 2 && words[0] == "items" ? parse_uint64(words[1]) : std::nullopt;
  if (!items || *items < 1 || *items > static_cast<std::uint64_t>(max_agents)) {
    std::string given;
    for (const auto& word : words) given += (given.empty() ? "" : " ") + word;
    fail_at(path, line, "the first line must be 'items N' with N in 1..", max_agents, ", got '", given, "'");
  }
  return static_cast<int>(*items);
}

/// `price item item ...`: keeps the best price per bundle.
void read_bid(const std::vector<std::string>& words, const std::string& path, long line, Game& game) {
  const auto price = parse_decimal(words[0]);
  if (!price || !(*price >= 0)) fail_at(path, line, "price '", words[0], "' is not a finite number >= 0");
  std::uint64_t bundle = 0;
  for (std::size_t k = 1; k < words.size(); ++k) {
    const auto item = parse_uint64(words[k]);
    if (!item || *item < 1 || *item > static_cast<std::uint64_t>(game.agents)) {
      fail_at(path, line, "item '", words[k], "' is not in 1..", game.agents);
    }
    if (bundle >> (*item - 1) & 1) fail_at(path, line, "item ", *item, " appears twice in one bid");
    bundle |= std::uint64_t{1} << (*item - 1);
  }
  if (bundle == 0) fail_at(path, line, "a bid needs at least one item");
  game.values[bundle] = std::max(game.values[bundle], *price);
}

}  // namespace

Game read_bids(const std::string& path) {
  LineReader reader(path, "bids");
  std::string line;
  Game game;
  while (reader.next(line)) {
    std::istringstream fields(line.substr(0, line.find('#')));
    const std::vector<std::string> words{std::istream_iterator<std::string>(fields),
                                         std::istream_iterator<std::string>()};
    if (words.empty()) continue;
    if (game.agents == 0) {
      game = empty_game(read_items_line(words, path, reader.number()), path);
    } else {
      read_bid(words, path, reader.number(), game);
    }
  }
  if (game.agents == 0) fail_at(path, reader.number(), "no 'items N' line");
  validate_values(game, path);
  return game;
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
