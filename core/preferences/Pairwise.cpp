#include "core/preferences/Pairwise.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

namespace kollective::preferences {

PairwiseCounts pairwise_reference(const Profile& profile) {
  const int n = profile.alternatives;
  PairwiseCounts counts;
  counts.alternatives = n;
  counts.names = profile.names;
  counts.doubled.assign(static_cast<size_t>(n) * n, 0);
  std::vector<std::uint64_t> sums(static_cast<size_t>(n) * n, 0);
  for (const auto& ballot : profile.ballots) {
    const auto pos = positions(ballot, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        if (pos[i] < pos[j]) sums[static_cast<size_t>(i) * n + j] += 2 * ballot.count;
        if (pos[i] == pos[j] && pos[i] != unranked) sums[static_cast<size_t>(i) * n + j] += ballot.count;
      }
    }
  }
  for (size_t c = 0; c < sums.size(); ++c) {
    if (sums[c] > 0xffffffffu) fail("pairwise count exceeds 32-bit doubled range");
    counts.doubled[c] = static_cast<std::uint32_t>(sums[c]);
  }
  return counts;
}

namespace {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') { cell += '"'; ++i; }
      else if (c == '"') quoted = false;
      else cell += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else if (c != '\r') {
      cell += c;
    }
  }
  cells.push_back(cell);
  for (auto& text : cells) {
    const auto begin = text.find_first_not_of(" \t");
    const auto end = text.find_last_not_of(" \t");
    text = begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
  }
  return cells;
}

bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return *end == '\0';
}

}  // namespace

PairwiseCounts read_pairwise_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot open pairwise matrix '", path, "'");
  std::vector<std::pair<long, std::vector<std::string>>> rows;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    rows.emplace_back(number, split_csv_line(line));
  }
  if (rows.empty()) fail_at(path, 0, "no matrix rows");
  PairwiseCounts counts;
  const auto& first = rows.front().second;
  const bool header = first[0].empty() || !is_number(first[0]);
  if (header) {  // ",A,B,C" (corner cell empty) or "A,B,C"
    counts.names.assign(first.begin() + (first[0].empty() ? 1 : 0), first.end());
    rows.erase(rows.begin());
  }
  const int n = static_cast<int>(rows.size());
  if (n == 0) fail_at(path, 0, "header but no matrix rows");
  if (counts.names.empty()) counts.names = numbered_names(n);
  if (static_cast<int>(counts.names.size()) != n) {
    fail_at(path, header ? 1 : 0, "header names ", counts.names.size(), " alternatives but there are ", n, " rows");
  }
  counts.alternatives = n;
  counts.doubled.assign(static_cast<size_t>(n) * n, 0);
  const bool named = static_cast<int>(rows.front().second.size()) == n + 1;  // leading name column
  const size_t expected = named ? n + 1 : n;
  for (int i = 0; i < n; ++i) {
    const auto& [line_number, cells] = rows[i];
    if (cells.size() != expected) {
      fail_at(path, line_number, "row has ", cells.size(), " cells, expected ", expected);
    }
    if (named && header && cells[0] != counts.names[i]) {
      fail_at(path, line_number, "row name '", cells[0], "' does not match column name '", counts.names[i], "'");
    }
    for (int j = 0; j < n; ++j) {
      const std::string& text = cells[j + (named ? 1 : 0)];
      if (i == j) {
        if (!text.empty() && !(is_number(text) && std::strtod(text.c_str(), nullptr) == 0.0)) {
          fail_at(path, line_number, "diagonal cell must be 0 or empty, got '", text, "'");
        }
        continue;
      }
      const double value = is_number(text) ? std::strtod(text.c_str(), nullptr) : -1.0;
      const double twice = 2.0 * value;
      if (!(value >= 0) || twice != std::floor(twice) || twice > 4294967295.0) {
        fail_at(path, line_number, "cell ", j + 1, " '", text,
                "' is not a count (a non-negative multiple of 0.5 below 2^31)");
      }
      counts.doubled[static_cast<size_t>(i) * n + j] = static_cast<std::uint32_t>(twice);
    }
  }
  return counts;
}

void write_pairwise_csv(const PairwiseCounts& counts, const std::string& path) {
  std::ofstream out(path);
  if (!out) fail("cannot write '", path, "'");
  auto name = [](const std::string& text) {
    if (text.find_first_of(",\"") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  };
  for (const auto& n : counts.names) out << "," << name(n);
  out << "\n";
  for (int i = 0; i < counts.alternatives; ++i) {
    out << name(counts.names[i]);
    for (int j = 0; j < counts.alternatives; ++j) {
      const std::uint32_t d = counts.at(i, j);
      out << "," << d / 2 << (d % 2 ? ".5" : "");
    }
    out << "\n";
  }
  if (!out) fail("error while writing '", path, "'");
}

}  // namespace kollective::preferences
