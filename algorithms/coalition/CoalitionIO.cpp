#include "kollective/algorithms/coalition/CoalitionIO.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/TextInput.hpp"

namespace kollective::coalition {

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
  if (!in.read(reinterpret_cast<char*>(&value), sizeof(T)))
    fail_at(path, 0, "file ends inside the header (", what, ")");
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
    const char* bytes =
        single_precision ? reinterpret_cast<const char*>(&narrow) : reinterpret_cast<const char*>(&value);
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
  if (agents < 1 || agents > max_agents)
    fail_at(path, 0, "header says ", agents, " agents; 1..", max_agents, " are supported");
  if (width != 4 && width != 8)
    fail_at(path, 0, "header says ", width, "-byte values; 4 (float) or 8 (double) are supported");
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
    if (!in.read(reinterpret_cast<char*>(chunk.data()), static_cast<std::streamsize>(take * width)))
      fail_at(path, 0, "read error");
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

std::string format_structure(const Structure& structure, const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t k = 0; k < structure.size(); ++k) {
    text += k ? ", {" : "{";
    bool first = true;
    for (int agent = 0; agent < 64; ++agent) {
      if (structure[k] >> agent & 1) {
        text +=
            (first ? "" : ", ") + (agent < static_cast<int>(names.size()) ? names[agent] : std::to_string(agent + 1));
        first = false;
      }
    }
    text += "}";
  }
  return text;
}

std::string format_from_extension(const std::string& path) {
  auto ends_with = [&](const std::string& suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".txt")) return "text";
  if (ends_with(".kcsg")) return "binary";
  if (ends_with(".bids")) return "bids";
  return "";
}

Game read_game(const std::string& path, const std::string& format) {
  if (format == "text") return read_rahwan_text(path);
  if (format == "binary") return read_binary(path);
  if (format == "bids") return read_bids(path);
  fail("unknown coalition value format '", format, "' (text, binary or bids)");
}

}  // namespace kollective::coalition
