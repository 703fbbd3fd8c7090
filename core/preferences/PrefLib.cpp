#include "core/preferences/PrefLib.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <vector>

#include "core/Error.hpp"

namespace kollective::preferences {

namespace {

struct Line {
  long number;
  std::string text;
};

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

/// Non-empty lines with their 1-based numbers.
std::vector<Line> read_lines(std::istream& in) {
  std::vector<Line> lines;
  std::string text;
  long number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (!trim(text).empty()) lines.push_back({number, trim(text)});
  }
  return lines;
}

/// Strict non-negative integer (digits only, fits in int64).
std::optional<std::int64_t> parse_count(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return std::nullopt;
  }
  errno = 0;
  const long long value = std::strtoll(t.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return value;
}

class Reader {
 public:
  Reader(std::string origin) : origin_(std::move(origin)) {}
  [[noreturn]] void error(long line, const std::string& message) const {
    fail_at(origin_, line, message);
  }

  /// Parses "1,{2,3},4" (alternatives numbered from 1) into groups of 0-based indices.
  std::vector<std::vector<int>> parse_order(const std::string& text, int n, long line) const {
    std::vector<std::vector<int>> groups;
    std::vector<bool> seen(n, false);
    size_t i = 0;
    auto skip_space = [&] { while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i; };
    auto read_alternative = [&]() -> int {
      skip_space();
      const size_t start = i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      if (start == i) {
        error(line, i < text.size() ? "unexpected '" + std::string(1, text[i]) + "' in order"
                                    : "order ends where an alternative was expected");
      }
      const auto value = parse_count(text.substr(start, i - start));
      if (!value || *value < 1 || *value > n) {
        error(line, "unknown alternative " + text.substr(start, i - start) + " (alternatives are 1.." +
                        std::to_string(n) + ")");
      }
      const int a = static_cast<int>(*value - 1);
      if (seen[a]) error(line, "alternative " + std::to_string(a + 1) + " appears twice in one order");
      seen[a] = true;
      skip_space();
      return a;
    };
    skip_space();
    if (i == text.size()) error(line, "empty order");
    while (true) {
      skip_space();
      if (i < text.size() && text[i] == '{') {
        ++i;
        std::vector<int> group;
        skip_space();
        if (i < text.size() && text[i] == '}') error(line, "empty tie group '{}'");
        while (true) {
          group.push_back(read_alternative());
          if (i < text.size() && text[i] == ',') { ++i; continue; }
          if (i < text.size() && text[i] == '}') { ++i; break; }
          error(line, "unbalanced braces: '{' without matching '}'");
        }
        groups.push_back(std::move(group));
      } else if (i < text.size() && text[i] == '}') {
        error(line, "unbalanced braces: '}' without matching '{'");
      } else {
        groups.push_back({read_alternative()});
      }
      skip_space();
      if (i == text.size()) break;
      if (text[i] != ',') {
        error(line, text[i] == '{' || text[i] == '}' ? "unbalanced braces"
                                                    : "expected ',' but found '" + std::string(1, text[i]) + "'");
      }
      ++i;
    }
    return groups;
  }

  Profile parse(const std::vector<Line>& lines) {
    if (lines.empty()) error(0, "empty file");
    return lines.front().text[0] == '#' ? parse_current(lines) : parse_legacy(lines);
  }

  std::string declared_type;  // from the header (current format) or empty

 private:
  Profile parse_current(const std::vector<Line>& lines) {
    Profile profile;
    std::optional<std::int64_t> alternatives, voters, unique_orders;
    std::map<int, std::pair<std::string, long>> names;
    size_t index = 0;
    for (; index < lines.size() && lines[index].text[0] == '#'; ++index) {
      const Line& l = lines[index];
      const auto colon = l.text.find(':');
      if (colon == std::string::npos) continue;  // free comment
      const std::string key = trim(l.text.substr(1, colon - 1));
      const std::string value = trim(l.text.substr(colon + 1));
      auto number = [&](const char* what) {
        const auto parsed = parse_count(value);
        if (!parsed) error(l.number, std::string(what) + " '" + value + "' is not a non-negative integer");
        return *parsed;
      };
      if (key == "NUMBER ALTERNATIVES") {
        alternatives = number("NUMBER ALTERNATIVES");
        if (*alternatives < 1 || *alternatives > (1 << 24)) error(l.number, "NUMBER ALTERNATIVES must be in 1..16777216");
      } else if (key == "NUMBER VOTERS") {
        voters = number("NUMBER VOTERS");
      } else if (key == "NUMBER UNIQUE ORDERS") {
        unique_orders = number("NUMBER UNIQUE ORDERS");
      } else if (key == "DATA TYPE") {
        declared_type = value;
        if (value != "soc" && value != "soi" && value != "toc" && value != "toi") {
          error(l.number, "DATA TYPE '" + value + "' is not an ordinal type (soc, soi, toc, toi)");
        }
      } else if (key == "TITLE") {
        profile.title = value;
      } else if (key.rfind("ALTERNATIVE NAME ", 0) == 0) {
        const auto id = parse_count(key.substr(17));
        if (!id || *id < 1) error(l.number, "bad alternative number in '" + key + "'");
        names[static_cast<int>(*id)] = {value, l.number};
      }
    }
    if (!alternatives) error(lines.front().number, "header lacks '# NUMBER ALTERNATIVES: n'");
    const int n = static_cast<int>(*alternatives);
    profile.alternatives = n;
    profile.names = numbered_names(n);
    for (const auto& [id, entry] : names) {
      if (id > n) error(entry.second, "name given for alternative " + std::to_string(id) + " of " + std::to_string(n));
      profile.names[id - 1] = entry.first;
    }
    for (; index < lines.size(); ++index) {
      const Line& l = lines[index];
      if (l.text[0] == '#') error(l.number, "header line after the data");
      const auto colon = l.text.find(':');
      if (colon == std::string::npos) error(l.number, "expected 'count: order'");
      const auto count = parse_count(l.text.substr(0, colon));
      if (!count || *count < 1) error(l.number, "count '" + trim(l.text.substr(0, colon)) + "' is not a positive integer");
      profile.ballots.push_back({*count, parse_order(l.text.substr(colon + 1), n, l.number)});
    }
    check_totals(profile, voters, unique_orders, lines.back().number);
    return profile;
  }

  Profile parse_legacy(const std::vector<Line>& lines) {
    Profile profile;
    const auto n = parse_count(lines[0].text);
    if (!n || *n < 1 || *n > (1 << 24)) error(lines[0].number, "expected the number of alternatives on the first line");
    const int alternatives = static_cast<int>(*n);
    profile.alternatives = alternatives;
    profile.names = numbered_names(alternatives);
    if (lines.size() < static_cast<size_t>(alternatives) + 2) {
      error(lines.back().number, "file ends inside the header (" + std::to_string(alternatives) + " name lines and a totals line expected)");
    }
    for (int i = 1; i <= alternatives; ++i) {
      const Line& l = lines[i];
      const auto comma = l.text.find(',');
      const auto id = comma == std::string::npos ? std::nullopt : parse_count(l.text.substr(0, comma));
      if (!id || *id != i) error(l.number, "expected '" + std::to_string(i) + ",Name'");
      profile.names[i - 1] = trim(l.text.substr(comma + 1));
    }
    const Line& totals = lines[alternatives + 1];
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t c = 0; c <= totals.text.size(); ++c) {
      if (c == totals.text.size() || totals.text[c] == ',') {
        fields.push_back(totals.text.substr(start, c - start));
        start = c + 1;
      }
    }
    std::optional<std::int64_t> voters, sum, unique;
    if (fields.size() == 3) { voters = parse_count(fields[0]); sum = parse_count(fields[1]); unique = parse_count(fields[2]); }
    if (!voters || !sum || !unique) error(totals.number, "expected 'voters,sum of counts,unique orders'");
    for (size_t index = alternatives + 2; index < lines.size(); ++index) {
      const Line& l = lines[index];
      const auto comma = l.text.find(',');
      if (comma == std::string::npos) error(l.number, "expected 'count,order'");
      const auto count = parse_count(l.text.substr(0, comma));
      if (!count || *count < 1) error(l.number, "count '" + trim(l.text.substr(0, comma)) + "' is not a positive integer");
      profile.ballots.push_back({*count, parse_order(l.text.substr(comma + 1), alternatives, l.number)});
    }
    check_totals(profile, sum, unique, lines.back().number);
    return profile;
  }

  void check_totals(const Profile& profile, std::optional<std::int64_t> voters,
                    std::optional<std::int64_t> unique_orders, long last_line) const {
    std::int64_t total = 0;
    for (const auto& ballot : profile.ballots) {
      total += ballot.count;
      if (total >= (std::int64_t{1} << 31)) error(last_line, "total voter count exceeds 2^31 - 1");
    }
    if (voters && *voters != total) {
      error(last_line, "counts sum to " + std::to_string(total) + " but the header says " +
                           std::to_string(*voters) + " voters");
    }
    if (unique_orders && *unique_orders != static_cast<std::int64_t>(profile.ballots.size())) {
      error(last_line, std::to_string(profile.ballots.size()) + " orders but the header says " +
                           std::to_string(*unique_orders) + " unique orders");
    }
  }

  std::string origin_;
};

bool type_admits(const std::string& declared, DataType actual) {
  if (declared == "toi") return true;
  if (declared == "toc") return actual == DataType::soc || actual == DataType::toc;
  if (declared == "soi") return actual == DataType::soc || actual == DataType::soi;
  if (declared == "soc") return actual == DataType::soc;
  return true;
}

void check_type(const Profile& profile, const std::string& declared, const std::string& origin,
                const char* source) {
  if (declared.empty()) return;
  const DataType actual = profile.data_type();
  if (!type_admits(declared, actual)) {
    fail_at(origin, 0, source, " says '", declared, "' but the data is ", to_string(actual),
            actual == DataType::toc || actual == DataType::toi ? " (it has ties)" : " (some orders are incomplete)");
  }
}

std::string extension_type(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos) return "";
  const std::string extension = path.substr(dot + 1);
  return extension == "soc" || extension == "soi" || extension == "toc" || extension == "toi" ? extension : "";
}

}  // namespace

Profile parse_preflib(std::istream& in, const std::string& origin, const std::string& declared_type) {
  Reader reader(origin);
  Profile profile = reader.parse(read_lines(in));
  check_type(profile, reader.declared_type, origin, "DATA TYPE");
  check_type(profile, declared_type, origin, "the file extension");
  validate(profile, origin);
  return profile;
}

Profile read_preflib(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot open PrefLib file '", path, "'");
  return parse_preflib(in, path, extension_type(path));
}

namespace {
/// "1,{2,3},4": groups of 1-based alternatives.
void write_order(const Ballot& ballot, std::ostream& out) {
  for (size_t g = 0; g < ballot.groups.size(); ++g) {
    const auto& group = ballot.groups[g];
    out << (g ? "," : "") << (group.size() > 1 ? "{" : "");
    for (size_t k = 0; k < group.size(); ++k) out << (k ? "," : "") << group[k] + 1;
    out << (group.size() > 1 ? "}" : "");
  }
}
}  // namespace

void write_preflib_legacy(const Profile& profile, std::ostream& out) {
  validate(profile, "profile");
  out << profile.alternatives << "\n";
  for (int i = 0; i < profile.alternatives; ++i) out << i + 1 << "," << profile.names[i] << "\n";
  out << profile.total_weight() << "," << profile.total_weight() << "," << profile.ballots.size() << "\n";
  for (const auto& ballot : profile.ballots) {
    out << ballot.count << ",";
    write_order(ballot, out);
    out << "\n";
  }
}

void write_preflib(const Profile& profile, std::ostream& out, const std::string& file_name) {
  validate(profile, file_name.empty() ? "profile" : file_name);
  if (!file_name.empty()) out << "# FILE NAME: " << file_name << "\n";
  if (!profile.title.empty()) out << "# TITLE: " << profile.title << "\n";
  out << "# DATA TYPE: " << to_string(profile.data_type()) << "\n";
  out << "# NUMBER ALTERNATIVES: " << profile.alternatives << "\n";
  out << "# NUMBER VOTERS: " << profile.total_weight() << "\n";
  out << "# NUMBER UNIQUE ORDERS: " << profile.ballots.size() << "\n";
  for (int i = 0; i < profile.alternatives; ++i) {
    out << "# ALTERNATIVE NAME " << i + 1 << ": " << profile.names[i] << "\n";
  }
  for (const auto& ballot : profile.ballots) {
    out << ballot.count << ": ";
    write_order(ballot, out);
    out << "\n";
  }
}

void write_preflib_file(const Profile& profile, const std::string& path) {
  std::ofstream out(path);
  if (!out) fail("cannot write PrefLib file '", path, "'");
  const auto slash = path.rfind('/');
  write_preflib(profile, out, slash == std::string::npos ? path : path.substr(slash + 1));
  if (!out) fail("error while writing '", path, "'");
}

}  // namespace kollective::preferences
