#include "kollective/algorithms/coalition/CoalitionIO.hpp"

#include <Kokkos_Core.hpp>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

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

/// Bytes [begin, end) of a text value file: the lines that start there, one worker's. Line
/// numbers below are 0 where there is no such line.
struct TextRange {
  std::int64_t begin = 0, end = 0;
  std::int64_t newlines = 0;           ///< in [begin, end) (first pass)
  bool ends_line = false;              ///< its last byte is a newline (first pass)
  std::int64_t first_slot = 0;         ///< lines that start before `begin`: the slot of its first line
  std::int64_t slot_end = 0;           ///< the next range's first slot
  std::int64_t first_blank = 0;        ///< its first blank line
  std::int64_t first_value = 0;        ///< its first line holding something
  std::int64_t value_after_blank = 0;  ///< its first line holding something after first_blank
  std::int64_t last_value = 0;         ///< its last line holding something
  std::int64_t bad_line = 0;           ///< its first line holding something that is not a value
  std::string bad_text;                ///< that line, trimmed
  std::int64_t failure_line = 0;       ///< where it could not read on (the rest is not parsed)
  std::string failure;                 ///< why: a read error, an overlong line, a NUL byte
};

/// A file closed when it goes out of scope.
using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
File open_file(const std::string& path) { return File(std::fopen(path.c_str(), "rb"), &std::fclose); }

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

/// First pass: the range's newlines, and whether it ends one.
void count_newlines(const std::string& path, TextRange& range) {
  const File file = open_file(path);
  std::string bytes;
  if (!file || !append_bytes(file.get(), range.begin, range.end, bytes)) {
    range.failure = "read error";
  } else {
    range.newlines = std::count(bytes.begin(), bytes.end(), '\n');
    range.ends_line = !bytes.empty() && bytes.back() == '\n';
  }
}

/// The range's bytes from begin - 1 (whether a line starts at begin) to the end of the line that
/// starts last in it, read past `end`; `owned`: how many are of [begin - 1, end).
bool range_bytes(const std::string& path, const TextRange& range, std::string& bytes, std::size_t& owned) {
  const File file = open_file(path);
  bool read = file && append_bytes(file.get(), range.begin > 0 ? range.begin - 1 : 0, range.end, bytes);
  owned = bytes.size();
  if (read && owned > 0 && bytes[owned - 1] != '\n') {
    for (std::int64_t at = range.end; read;) {
      const std::size_t before = bytes.size();
      read = append_bytes(file.get(), at, at + (std::int64_t{1} << 16), bytes);
      if (bytes.size() == before || bytes.find('\n', before) != std::string::npos ||
          bytes.size() - owned > LineReader::max_line_bytes)
        break;
      at += static_cast<std::int64_t>(bytes.size() - before);
    }
  }
  return read;
}

/// Stops the range's parse at line `number`, why.
void stop_at(TextRange& range, std::int64_t number, std::string why) {
  range.failure_line = number;
  range.failure = std::move(why);
}

/// Second pass: the range's lines, line number k parsed into out[k - 1 - base]; lines past the
/// range's slots (the file grew since the first pass) stop it.
void parse_range(const std::string& path, TextRange& range, double* out, std::int64_t base) {
  std::string bytes;
  std::size_t owned = 0;
  if (!range_bytes(path, range, bytes, owned)) return stop_at(range, range.first_slot + 1, "read error");
  std::size_t start = 0;  // of the range's first line in `bytes`
  if (range.begin > 0) {
    start = bytes[0] == '\n' ? 1 : bytes.find('\n') + 1;  // find: npos + 1 = 0 past owned
    if (start == 0 || start >= owned) return;             // no line starts in the range
  }
  for (std::int64_t number = range.first_slot + 1; start < owned; ++number) {
    std::size_t stop = bytes.find('\n', start);
    if (stop == std::string::npos) stop = bytes.size();
    if (number > range.slot_end) return stop_at(range, number, "the file changed while it was read");
    if (stop - start > LineReader::max_line_bytes) return stop_at(range, number, LineReader::too_long());
    std::string_view line(bytes.data() + start, stop - start);
    if (line.find('\0') != std::string_view::npos) return stop_at(range, number, LineReader::nul_byte);
    if (number == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
    start = stop + 1;
    const std::string_view text = trim_blanks(line);
    if (text.empty()) {
      if (range.first_blank == 0) range.first_blank = number;
      continue;
    }
    if (range.first_value == 0) range.first_value = number;
    if (range.first_blank != 0 && range.value_after_blank == 0) range.value_after_blank = number;
    range.last_value = number;
    const auto value = parse_decimal(text);
    if (!value && range.bad_line == 0) range.bad_line = number, range.bad_text = std::string(text.substr(0, 80));
    if (value) out[number - 1 - base] = *value;
  }
}

/// The cores this process may run on (its affinity: taskset, a batch system's binding).
int usable_cores() {
  cpu_set_t cores;
  if (sched_getaffinity(0, sizeof(cores), &cores) != 0) return 1;
  return std::max(1, CPU_COUNT(&cores));
}

/// Runs work(i) for i in [first, last) on the default host space's threads where it has several,
/// else on a thread per usable core (a GPU build's host space is often Serial), or here where Kokkos
/// is not initialized; the first exception a work item throws is thrown here, after all.
template <class Work>
void on_host_threads(std::size_t first, std::size_t last, const Work& work) {
  std::exception_ptr thrown;
  std::mutex first_thrown;
  const auto guarded = [&](std::size_t i) {
    try {
      work(i);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(first_thrown);
      if (!thrown) thrown = std::current_exception();
    }
  };
  if (!Kokkos::is_initialized()) {
    for (std::size_t i = first; i < last; ++i) guarded(i);
  } else if (Kokkos::DefaultHostExecutionSpace().concurrency() > 1) {
    Kokkos::parallel_for("Kollective::coalition::value_file",
                         Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
                             static_cast<std::int64_t>(first), static_cast<std::int64_t>(last)),
                         [&](std::int64_t i) { guarded(static_cast<std::size_t>(i)); });
    Kokkos::DefaultHostExecutionSpace().fence("Kollective::coalition: value file");
  } else {
    std::atomic<std::size_t> next{first};
    std::vector<std::thread> threads;
    try {
      for (int t = 0; t < usable_cores() && threads.size() < last - first; ++t) {
        threads.emplace_back([&] {
          for (std::size_t i = next++; i < last; i = next++) guarded(i);
        });
      }
    } catch (...) {  // no thread to be had: the ones started finish the work
      if (threads.empty()) throw;
    }
    for (auto& thread : threads) thread.join();
  }
  if (thrown) std::rethrow_exception(thrown);
}

/// The error a reading line by line meets first, in line order: a line it cannot read (reported
/// there), the first line holding something after a blank line (reported at the blank line), a
/// line that is not a value. At one line, the reading fails before the line is looked at.
void fail_at_first_problem(const std::string& path, const std::vector<TextRange>& ranges) {
  constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
  std::int64_t failure_line = none, bad_line = none, blank = 0, after_blank = none;
  const TextRange *failed = nullptr, *bad = nullptr;
  for (const TextRange& range : ranges) {
    if (range.failure_line != 0 && failed == nullptr) failed = &range, failure_line = range.failure_line;
    if (range.bad_line != 0 && bad == nullptr) bad = &range, bad_line = range.bad_line;
    if (blank != 0 && after_blank == none && range.first_value != 0) after_blank = range.first_value;
    if (blank == 0 && range.first_blank != 0) {
      blank = range.first_blank;
      if (range.value_after_blank != 0) after_blank = range.value_after_blank;
    }
  }
  const std::int64_t first = std::min({failure_line, after_blank, bad_line});
  if (first == none) return;
  if (first == failure_line) fail_at(path, failure_line, failed->failure);
  if (first == after_blank) fail_at(path, blank, "blank line: line x holds v(x - 1), one value per line");
  fail_at(path, bad_line, why_not_a_value(bad->bad_text));
}

constexpr char binary_magic[8] = {'K', 'L', 'C', 'S', 'G', '\0', 'v', '2'};
constexpr char binary_magic_v1[8] = {'K', 'L', 'C', 'S', 'G', '\0', 'v', '1'};
constexpr std::uint64_t binary_checksum_bytes = 8;
/// Values per checksum: 8 MiB of doubles, a thread's work; files may say 1..2^26.
constexpr std::uint64_t binary_group_values = std::uint64_t{1} << 20, binary_most_group_values = std::uint64_t{1} << 26;
/// Values converted per pass of a float file (their bytes are held beside the doubles).
constexpr std::int64_t binary_float_pass = std::int64_t{1} << 24;

/// FNV-1a over bytes, continued from `hash`.
std::uint64_t fnv1a(const unsigned char* bytes, std::size_t count, std::uint64_t hash = 0xcbf29ce484222325ull) {
  for (std::size_t i = 0; i < count; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
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

/// The text file's ranges (counted), or the binary file's header and stream.
struct Impl::ValueFileReader::State {
  std::string path;
  bool text = true;
  std::vector<TextRange> ranges;
  std::size_t next_range = 0;
  std::int64_t slots = 0;
  std::ifstream binary;
  int version = 2;
  std::uint32_t width = 8;
  std::uint64_t group_values = 0;        // version 2: values per checksum
  std::vector<std::uint64_t> checksums;  // version 2: one per group, from the file's end
  int agents = 0;
  std::int64_t done = 0;
  std::uint64_t hash = 0xcbf29ce484222325ull;  // version 1: of the bytes read so far
  std::vector<unsigned char> chunk;
};

Impl::ValueFileReader::ValueFileReader(const std::string& path, const std::string& format, std::int64_t range_bytes)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = path;
  if (format == "binary") {
    open_binary();
    return;
  }
  if (format != "text") fail("unknown coalition value format '", format, "' (text or binary)");
  open_input(path, "coalition values");  // the messages of a missing, unreadable or special file
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path));
  s.ranges.resize(static_cast<std::size_t>((size + range_bytes - 1) / range_bytes));
  for (std::size_t i = 0; i < s.ranges.size(); ++i) {
    s.ranges[i].begin = static_cast<std::int64_t>(i) * range_bytes;
    s.ranges[i].end = std::min(size, s.ranges[i].begin + range_bytes);
  }
  on_host_threads(0, s.ranges.size(), [&](std::size_t i) { count_newlines(path, s.ranges[i]); });
  std::int64_t newlines = 0;  // before the range
  for (std::size_t i = 0; i < s.ranges.size(); ++i) {
    TextRange& range = s.ranges[i];
    if (!range.failure.empty()) fail_at(path, 0, range.failure);
    range.first_slot = i == 0 ? 0 : 1 + newlines - s.ranges[i - 1].ends_line;  // a line starts after each newline
    if (i > 0) s.ranges[i - 1].slot_end = range.first_slot;
    newlines += range.newlines;
  }
  s.slots = size == 0 ? 0 : 1 + newlines - s.ranges.back().ends_line;
  if (!s.ranges.empty()) s.ranges.back().slot_end = s.slots;
  if (s.slots > std::int64_t{1} << max_agents) fail_at(path, 0, "more than 2^", max_agents, " lines");
}

Impl::ValueFileReader::~ValueFileReader() = default;

void Impl::ValueFileReader::open_binary() {
  State& s = *state_;
  s.text = false;
  s.binary = open_input(s.path, "coalition values");
  s.binary.seekg(0, std::ios::end);
  const std::streamoff end = s.binary.tellg();
  if (end < 0) fail_at(s.path, 0, "cannot tell the file's size (binary coalition values must be a regular file)");
  const auto file_bytes = static_cast<std::uint64_t>(end);
  s.binary.seekg(0);
  char magic[8] = {};
  const bool read = static_cast<bool>(s.binary.read(magic, 8));
  if (read && std::equal(magic, magic + 8, binary_magic_v1)) {
    s.version = 1;
  } else if (!read || !std::equal(magic, magic + 8, binary_magic)) {
    fail_at(s.path, 0,
            "not a Kollective binary coalition file (the first 8 bytes must be \"KLCSG\", a zero byte and \"v2\" or "
            "\"v1\")");
  }
  const auto agents = read_scalar<std::uint32_t>(s.binary, s.path, "agents");
  s.width = read_scalar<std::uint32_t>(s.binary, s.path, "value bytes");
  if (agents < 1 || agents > max_agents)
    fail_at(s.path, 0, "header says ", agents, " agents; 1..", max_agents, " are supported");
  if (s.width != 4 && s.width != 8)
    fail_at(s.path, 0, "header says ", s.width, "-byte values; 4 (float) or 8 (double) are supported");
  const std::uint64_t count = std::uint64_t{1} << agents;
  std::uint64_t groups = 1;
  if (s.version == 2) {
    s.group_values = read_scalar<std::uint64_t>(s.binary, s.path, "values per checksum");
    if (s.group_values < 1 || s.group_values > binary_most_group_values)
      fail_at(s.path, 0, "header says ", s.group_values, " values per checksum; 1..", binary_most_group_values,
              " are supported");
    groups = (count + s.group_values - 1) / s.group_values;
  }
  const auto header_bytes = static_cast<std::uint64_t>(s.binary.tellg());
  const std::uint64_t expected = header_bytes + count * s.width + groups * binary_checksum_bytes;
  if (file_bytes != expected) {
    fail_at(s.path, 0, "has ", file_bytes, " bytes, but ", agents, " agents with ", s.width, "-byte values need ",
            expected, file_bytes < expected ? " (truncated)" : " (trailing data)");
  }
  s.agents = static_cast<int>(agents);
  s.slots = static_cast<std::int64_t>(count);
  if (s.version == 1) {
    s.chunk.resize(std::size_t{1} << 20);
    return;
  }
  s.checksums.resize(groups);
  s.binary.seekg(static_cast<std::streamoff>(header_bytes + count * s.width));
  if (!s.binary.read(reinterpret_cast<char*>(s.checksums.data()), static_cast<std::streamsize>(groups * 8)))
    fail_at(s.path, 0, "read error");
  s.binary.seekg(static_cast<std::streamoff>(header_bytes));
}

std::int64_t Impl::ValueFileReader::slots() const { return state_->slots; }

std::int64_t Impl::ValueFileReader::batch_limit() const {
  if (!state_->text && state_->version == 2)
    return std::min(static_cast<std::int64_t>(state_->group_values), state_->slots);
  std::int64_t most = 1;
  const auto& ranges = state_->ranges;
  for (std::size_t i = 0; i < ranges.size(); ++i)
    most = std::max(most, (i + 1 < ranges.size() ? ranges[i + 1].first_slot : state_->slots) - ranges[i].first_slot);
  return most;
}

std::int64_t Impl::ValueFileReader::read(double* out, std::int64_t capacity) {
  State& s = *state_;
  if (!s.text) return s.version == 1 ? read_binary_v1(out, capacity) : read_checked_groups(out, capacity);
  const std::size_t first = s.next_range;
  if (first >= s.ranges.size()) return 0;
  const auto slot_after = [&](std::size_t i) { return i < s.ranges.size() ? s.ranges[i].first_slot : s.slots; };
  std::size_t last = first + 1;
  while (last < s.ranges.size() && slot_after(last + 1) - s.ranges[first].first_slot <= capacity) ++last;
  if (slot_after(last) - s.ranges[first].first_slot > capacity) fail("internal error: a text batch over its buffer");
  const std::int64_t base = s.ranges[first].first_slot;
  on_host_threads(first, last, [&](std::size_t i) { parse_range(s.path, s.ranges[i], out, base); });
  s.next_range = last;
  return slot_after(last) - base;
}

/// Version 1: one checksum over all the bytes, so one thread reads and checks them in order.
std::int64_t Impl::ValueFileReader::read_binary_v1(double* out, std::int64_t capacity) {
  State& s = *state_;
  std::int64_t filled = 0;
  while (filled < capacity && s.done < s.slots) {
    const std::int64_t take = std::min<std::int64_t>(
        {capacity - filled, s.slots - s.done, static_cast<std::int64_t>(s.chunk.size() / s.width)});
    if (!s.binary.read(reinterpret_cast<char*>(s.chunk.data()), static_cast<std::streamsize>(take * s.width)))
      fail_at(s.path, 0, "read error");
    s.hash = fnv1a(s.chunk.data(), static_cast<std::size_t>(take) * s.width, s.hash);
    for (std::int64_t k = 0; k < take; ++k) {
      if (s.width == 4) {
        float value;
        std::memcpy(&value, s.chunk.data() + k * 4, 4);
        out[filled + k] = value;
      } else {
        std::memcpy(&out[filled + k], s.chunk.data() + k * 8, 8);
      }
    }
    s.done += take, filled += take;
  }
  return filled;
}

/// Version 2: whole groups (the last may be short), each checked (and a float one widened) by a
/// host thread. Doubles are read straight into `out`; floats a pass at a time through s.chunk.
std::int64_t Impl::ValueFileReader::read_checked_groups(double* out, std::int64_t capacity) {
  State& s = *state_;
  const auto group = static_cast<std::int64_t>(s.group_values);
  std::int64_t take = std::min(capacity, s.slots - s.done);
  if (s.done + take < s.slots) take -= take % group;
  if (take <= 0) {
    if (s.done == s.slots) return 0;
    fail("internal error: a binary batch smaller than its file's checksum groups");
  }
  const std::int64_t pass = s.width == 8 ? take : std::max(group, binary_float_pass / group * group);
  for (std::int64_t begin = 0; begin < take; begin += pass) {
    const std::int64_t values = std::min(pass, take - begin);
    auto* bytes = reinterpret_cast<unsigned char*>(out + begin);
    if (s.width == 4) {
      s.chunk.resize(static_cast<std::size_t>(values) * 4);
      bytes = s.chunk.data();
    }
    if (!s.binary.read(reinterpret_cast<char*>(bytes), static_cast<std::streamsize>(values * s.width)))
      fail_at(s.path, 0, "read error");
    const std::int64_t first_group = (s.done + begin) / group;
    std::vector<char> corrupt(static_cast<std::size_t>((values + group - 1) / group), 0);
    on_host_threads(0, corrupt.size(), [&](std::size_t g) {
      const std::int64_t from = static_cast<std::int64_t>(g) * group, to = std::min(values, from + group);
      const auto hash = fnv1a(bytes + from * s.width, static_cast<std::size_t>(to - from) * s.width);
      corrupt[g] = hash != s.checksums[static_cast<std::size_t>(first_group) + g];
      if (s.width == 4) {
        for (std::int64_t k = from; k < to; ++k) {
          float value;
          std::memcpy(&value, bytes + k * 4, 4);
          out[begin + k] = value;
        }
      }
    });
    const auto bad = std::find(corrupt.begin(), corrupt.end(), 1);
    if (bad != corrupt.end()) {
      const std::int64_t from = s.done + begin + (bad - corrupt.begin()) * group;
      fail_at(s.path, 0, "checksum mismatch in values ", from, " to ", std::min(s.slots, from + group) - 1,
              " (the values are corrupt)");
    }
  }
  s.done += take;
  return take;
}

int Impl::ValueFileReader::finish(double first_value) {
  State& s = *state_;
  if (!s.text) {
    if (s.done != s.slots) fail("internal error: a binary file's values not all read");
    if (s.version == 1 && read_scalar<std::uint64_t>(s.binary, s.path, "checksum") != s.hash)
      fail_at(s.path, 0, "checksum mismatch (the values are corrupt)");
    return s.agents;
  }
  fail_at_first_problem(s.path, s.ranges);
  std::int64_t count = 0;
  for (const TextRange& range : s.ranges) count = std::max(count, range.last_value);
  int agents = 0;
  while ((std::int64_t{1} << agents) < count) ++agents;
  if (count == 0 || (std::int64_t{1} << agents) != count || agents < 1) {
    fail_at(s.path, 0, count, " values: a game of n agents has 2^n lines (the first, v(empty), is 0)");
  }
  if (first_value != 0.0) fail_at(s.path, 1, "v(empty) must be 0");
  return agents;
}

Game Impl::read_value_file(const std::string& path, const std::string& format, std::int64_t range_bytes) {
  ValueFileReader reader(path, format, range_bytes);
  require_host_memory(reader.slots() * 8, "the coalition values in '" + path + "'");
  std::vector<double> values(static_cast<std::size_t>(reader.slots()));
  for (std::int64_t done = 0, got = 0; (got = reader.read(values.data() + done, reader.slots() - done)) > 0;)
    done += got;
  const int agents = reader.finish(values.empty() ? 0.0 : values[0]);
  values.resize(std::size_t{1} << agents);
  Game game = empty_game(agents, path);
  game.values = std::move(values);
  validate_values(game, path);
  return game;
}

Game read_rahwan_text(const std::string& path) { return Impl::read_value_file(path, "text"); }

Game read_binary(const std::string& path) { return Impl::read_value_file(path, "binary"); }

void write_rahwan_text(const Game& game, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  for (double value : game.values) std::fprintf(out, "%.17g\n", value);
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

void write_binary(const Game& game, const std::string& path, bool single_precision) {
  Impl::write_binary(game, path, single_precision, binary_group_values);
}

void Impl::write_binary(const Game& game, const std::string& path, bool single_precision, std::uint64_t group_values) {
  if (group_values < 1 || group_values > binary_most_group_values)
    fail("internal error: ", group_values, " values per checksum");
  const std::uint32_t agents = static_cast<std::uint32_t>(game.agents), width = single_precision ? 4 : 8;
  const std::uint64_t count = game.values.size();
  std::vector<float> narrow(single_precision ? count : 0);
  const auto* bytes = single_precision ? reinterpret_cast<const unsigned char*>(narrow.data())
                                       : reinterpret_cast<const unsigned char*>(game.values.data());
  std::vector<std::uint64_t> checksums((count + group_values - 1) / group_values);
  on_host_threads(0, checksums.size(), [&](std::size_t g) {  // a group a thread: narrowed, then summed
    const std::uint64_t from = g * group_values, to = std::min(count, from + group_values);
    for (std::uint64_t mask = from; mask < to && single_precision; ++mask)
      narrow[mask] = static_cast<float>(game.values[mask]);
    checksums[g] = fnv1a(bytes + from * width, static_cast<std::size_t>((to - from) * width));
  });
  std::ofstream out(path, std::ios::binary);
  if (!out) fail("cannot write '", path, "'");
  out.write(binary_magic, 8);
  out.write(reinterpret_cast<const char*>(&agents), 4);
  out.write(reinterpret_cast<const char*>(&width), 4);
  out.write(reinterpret_cast<const char*>(&group_values), 8);
  out.write(reinterpret_cast<const char*>(bytes), static_cast<std::streamsize>(count * width));
  out.write(reinterpret_cast<const char*>(checksums.data()), static_cast<std::streamsize>(checksums.size() * 8));
  if (!out.flush()) fail("error while writing '", path, "'");
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
