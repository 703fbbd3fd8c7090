#include "kollective/algorithms/coalition/CoalitionIO.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
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

namespace {

/// Bytes [begin, end) of a text value file, one worker's: the lines that start there.
struct TextRange {
  std::int64_t begin = 0, end = 0;
  std::int64_t newlines = 0;      ///< in [begin, end) (first pass)
  std::int64_t lines_before = 0;  ///< newlines before `begin`
  std::int64_t first_blank = 0;   ///< number of its first blank line (0: none)
  std::int64_t last_value = 0;    ///< number of its last line holding something
  std::int64_t bad_line = 0;      ///< number of its first line that is not a value (0: none)
  std::string bad_text;           ///< that line, trimmed
  std::string failure;            ///< a read error or an overlong line, with bad_line
};

/// Appends bytes [begin, end) of `file` to `bytes` (fewer at the end of the file); false on a
/// read error.
bool append_bytes(std::FILE* file, std::int64_t begin, std::int64_t end, std::string& bytes) {
  if (end <= begin) return true;
  if (fseeko(file, static_cast<off_t>(begin), SEEK_SET) != 0) return false;
  const std::size_t old = bytes.size();
  bytes.resize(old + static_cast<std::size_t>(end - begin));
  const std::size_t got = std::fread(bytes.data() + old, 1, static_cast<std::size_t>(end - begin), file);
  bytes.resize(old + got);
  return !std::ferror(file);
}

/// First pass: the newlines of the range.
void count_newlines(const std::string& path, TextRange& range) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  std::string bytes;
  if (file == nullptr || !append_bytes(file, range.begin, range.end, bytes)) {
    range.failure = "read error";
  } else {
    range.newlines = std::count(bytes.begin(), bytes.end(), '\n');
  }
  if (file != nullptr) std::fclose(file);
}

/// Second pass: the range's lines, each parsed into values[number - 1] (values holds one slot per
/// line of the file). The line that starts before `end` is read to its end, past `end`.
void parse_values(const std::string& path, TextRange& range, std::vector<double>& values) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  std::string bytes;  // from begin - 1: whether a line starts at begin
  const std::int64_t from = range.begin > 0 ? range.begin - 1 : 0;
  bool read = file != nullptr && append_bytes(file, from, range.end, bytes);
  const std::size_t owned = bytes.size();               // bytes of [from, end)
  if (read && owned > 0 && bytes[owned - 1] != '\n') {  // the rest of the line that starts last
    for (std::int64_t at = range.end; read;) {
      const std::size_t before = bytes.size();
      read = append_bytes(file, at, at + (std::int64_t{1} << 16), bytes);
      if (bytes.size() == before || bytes.find('\n', before) != std::string::npos ||
          bytes.size() - owned > LineReader::max_line_bytes)
        break;
      at += static_cast<std::int64_t>(bytes.size() - before);
    }
  }
  if (file != nullptr) std::fclose(file);
  if (!read) {
    range.failure = "read error";
    range.bad_line = range.lines_before + 1;
    return;
  }
  std::size_t start = 0;  // of the first line that starts in the range
  std::int64_t number = range.lines_before + 1;
  if (range.begin > 0) {
    if (bytes[0] != '\n') {
      const std::size_t newline = bytes.find('\n');
      if (newline == std::string::npos || newline + 1 >= owned) return;  // no line starts here
      start = newline + 1, number += 1;
    } else {
      start = 1;
    }
  }
  for (; start < owned; ++number) {
    std::size_t stop = bytes.find('\n', start);
    if (stop == std::string::npos) stop = bytes.size();
    if (stop - start > LineReader::max_line_bytes) {
      range.failure = "line longer than " + std::to_string(LineReader::max_line_bytes) + " bytes";
      range.bad_line = number;
      return;
    }
    std::string_view line(bytes.data() + start, stop - start);
    if (from + static_cast<std::int64_t>(start) == 0 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
    start = stop + 1;
    const std::string_view text = trim_blanks(line);
    if (text.empty()) {
      if (range.first_blank == 0) range.first_blank = number;
      continue;
    }
    range.last_value = number;
    const auto value = parse_decimal(text);
    if (!value && range.bad_line == 0) range.bad_line = number, range.bad_text = std::string(text.substr(0, 80));
    if (value) values[static_cast<std::size_t>(number - 1)] = *value;
  }
}

/// Runs work(i) for i in [0, count) on the default host space's threads, or here where Kokkos is
/// not initialized.
template <class Work>
void on_host_threads(std::size_t count, const Work& work) {
  if (!Kokkos::is_initialized()) {
    for (std::size_t i = 0; i < count; ++i) work(i);
    return;
  }
  Kokkos::parallel_for("Kollective::coalition::read_text",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
                           0, static_cast<std::int64_t>(count)),
                       [&](std::int64_t i) { work(static_cast<std::size_t>(i)); });
  Kokkos::DefaultHostExecutionSpace().fence("Kollective::coalition: text read");
}

/// The error a reading line by line meets first: a line that is not a value (or could not be
/// read), or a blank line followed by a value, reported at the blank line.
void fail_at_first_problem(const std::string& path, const std::vector<TextRange>& ranges) {
  std::int64_t first_blank = 0, last_value = 0;
  const TextRange* bad = nullptr;
  for (const TextRange& range : ranges) {
    if (range.first_blank != 0 && first_blank == 0) first_blank = range.first_blank;
    last_value = std::max(last_value, range.last_value);
    if (range.bad_line != 0 && bad == nullptr) bad = &range;
  }
  if (first_blank != 0 && last_value > first_blank && (bad == nullptr || bad->bad_line > first_blank))
    fail_at(path, first_blank, "blank line: line x holds v(x - 1), one value per line");
  if (bad != nullptr)
    fail_at(path, bad->bad_line, bad->failure.empty() ? why_not_a_value(bad->bad_text) : bad->failure);
}

}  // namespace

Game read_rahwan_text(const std::string& path) { return Impl::read_rahwan_text(path, std::int64_t{1} << 26); }

Game Impl::read_rahwan_text(const std::string& path, std::int64_t range_bytes) {
  check_input_file(path, "coalition values");
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path));
  std::vector<TextRange> ranges(static_cast<std::size_t>((size + range_bytes - 1) / range_bytes));
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    ranges[i].begin = static_cast<std::int64_t>(i) * range_bytes;
    ranges[i].end = std::min(size, ranges[i].begin + range_bytes);
  }
  on_host_threads(ranges.size(), [&](std::size_t i) { count_newlines(path, ranges[i]); });
  std::int64_t lines = 0;
  for (TextRange& range : ranges) {
    if (!range.failure.empty()) fail_at(path, 0, range.failure);
    range.lines_before = lines;
    lines += range.newlines;
  }
  if (lines >= std::int64_t{1} << max_agents) fail_at(path, 0, "more than 2^", max_agents, " lines");
  lines += 1;  // a last line without a newline
  require_host_memory(lines * 8, "the coalition values in '" + path + "'");
  std::vector<double> values(static_cast<std::size_t>(lines));
  on_host_threads(ranges.size(), [&](std::size_t i) { parse_values(path, ranges[i], values); });
  fail_at_first_problem(path, ranges);
  std::int64_t count = 0;
  for (const TextRange& range : ranges) count = std::max(count, range.last_value);
  values.resize(static_cast<std::size_t>(count));
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
