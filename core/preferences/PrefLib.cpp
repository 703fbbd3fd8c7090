#include "kollective/core/preferences/PrefLib.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/TextInput.hpp"

namespace kollective::preferences {

namespace {

constexpr std::uint64_t max_alternatives = std::uint64_t{1}
                                           << 20;  // as random_pairwise: far beyond what any method solves
// The pairwise builder keeps twice the voter count in 32 bits.
constexpr std::uint64_t max_voters = (std::uint64_t{1} << 31) - 1;

struct Line {
  long number;
  std::string text;  ///< trimmed, never empty
};

void keep_nonblank(std::vector<Line>& lines, long number, std::string_view text) {
  text = trim_blanks(text);  // also the CR of a CRLF line end
  if (!text.empty()) lines.push_back({number, std::string(text)});
}

/// Text given in memory gets what LineReader does for files: no BOM, no CR, 1-based numbers.
std::vector<Line> read_lines(std::istream& in) {
  std::vector<Line> lines;
  std::string text;
  for (long number = 1; std::getline(in, text); ++number) {
    if (number == 1) strip_bom(text);
    keep_nonblank(lines, number, text);
  }
  return lines;
}

std::vector<Line> read_lines(const std::string& path) {
  LineReader reader(path, "PrefLib file");
  std::vector<Line> lines;
  std::string text;
  while (reader.next(text)) keep_nonblank(lines, reader.number(), text);
  return lines;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

/// A count or number the header declares, and the line that declares it.
struct Declared {
  std::uint64_t value;
  long line;
};

/// `# ALTERNATIVE NAME k: name`, kept until the number of alternatives is known.
struct NameLine {
  std::string id;
  std::string name;
  long line;
};

class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}
  [[noreturn]] void error(long line, const std::string& message) const { fail_at(origin_, line, message); }

  Profile parse(const std::vector<Line>& lines) {
    if (lines.empty()) error(0, "empty file");
    return lines.front().text[0] == '#' ? parse_current(lines) : parse_legacy(lines);
  }

  std::string declared_type;  // from the header (current format) or empty

 private:
  /// `text` as a whole number in low..high, else fails naming `what` (and `where`, if given).
  std::uint64_t whole_number(std::string_view text, std::uint64_t low, std::uint64_t high, long line,
                             const std::string& what, const std::string& where = "") const {
    text = trim_blanks(text);
    if (!all_digits(text)) error(line, what + " '" + std::string(text) + "'" + where + " is not a whole number");
    const auto value = parse_uint64(text);
    if (!value || *value < low || *value > high) {
      error(line, what + " " + std::string(text) + where + " is outside " + std::to_string(low) + ".." +
                      std::to_string(high));
    }
    return *value;
  }

  /// Parses "1,{2,3},4" (alternatives numbered from 1) into groups of 0-based indices.
  std::vector<std::vector<int>> parse_order(const std::string& text, long line) {
    std::vector<std::vector<int>> groups;
    size_t i = 0;
    auto skip_space = [&] {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;  // blanks only: no form feeds
    };
    auto read_alternative = [&]() -> int {
      skip_space();
      const size_t start = i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      if (start == i) {
        error(line, i < text.size() ? "unexpected '" + std::string(1, text[i]) + "' in order"
                                    : "order ends where an alternative was expected");
      }
      const auto value = parse_uint64(std::string_view(text).substr(start, i - start));
      if (!value || *value < 1 || *value > seen_.size()) {
        error(line, "unknown alternative " + text.substr(start, i - start) + " (alternatives are 1.." +
                        std::to_string(seen_.size()) + ")");
      }
      const int a = static_cast<int>(*value - 1);
      if (seen_[a]) error(line, "alternative " + std::to_string(a + 1) + " appears twice in one order");
      seen_[a] = true;
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
          if (i < text.size() && text[i] == ',') {
            ++i;
            continue;
          }
          if (i < text.size() && text[i] == '}') {
            ++i;
            break;
          }
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
    for (const auto& group : groups) {
      for (int a : group) seen_[a] = false;  // ready for the next order, without clearing all n
    }
    return groups;
  }

  /// Reads one `# KEY: value` line; keys Kollective does not use are skipped, the others may
  /// appear once.
  void read_header_line(const Line& l) {
    const auto colon = l.text.find(':');
    if (colon == std::string::npos) return;  // a free comment
    const std::string key(trim_blanks(std::string_view(l.text).substr(1, colon - 1)));
    const std::string value(trim_blanks(std::string_view(l.text).substr(colon + 1)));
    const std::string name_key = "ALTERNATIVE NAME ";
    if (key.rfind(name_key, 0) == 0) {
      names_.push_back({key.substr(name_key.size()), value, l.number});
      return;
    }
    if (key != "NUMBER ALTERNATIVES" && key != "NUMBER VOTERS" && key != "NUMBER UNIQUE ORDERS" && key != "DATA TYPE" &&
        key != "TITLE") {
      return;
    }
    const auto [first, fresh] = key_lines_.emplace(key, l.number);
    if (!fresh) error(l.number, "repeated header '" + key + "' (first on line " + std::to_string(first->second) + ")");
    if (key == "NUMBER ALTERNATIVES") {
      alternatives_ = Declared{whole_number(value, 1, max_alternatives, l.number, key), l.number};
    } else if (key == "NUMBER VOTERS") {
      voters_ = Declared{whole_number(value, 0, max_voters, l.number, key), l.number};
    } else if (key == "NUMBER UNIQUE ORDERS") {
      unique_orders_ = Declared{whole_number(value, 0, max_voters, l.number, key), l.number};
    } else if (key == "DATA TYPE") {
      if (value != "soc" && value != "soi" && value != "toc" && value != "toi") {
        error(l.number, "DATA TYPE '" + value + "' is not an ordinal type (soc, soi, toc, toi)");
      }
      declared_type = value;
    } else {
      title_ = value;
    }
  }

  /// Names for alternatives 1..n: those given (each once, in range, non-empty), numbers for the
  /// rest; all distinct, since results and matrices name alternatives. Only the given names are
  /// indexed: n comes from the file and may be large while the names given are few.
  std::vector<std::string> alternative_names(std::uint64_t n) const {
    std::vector<std::string> names = numbered_names(static_cast<int>(n));
    std::map<std::uint64_t, long> named_on;                   // alternative -> line of its name
    std::unordered_map<std::string, std::uint64_t> named_by;  // given name -> alternative
    for (const NameLine& given : names_) {
      const std::uint64_t id =
          whole_number(given.id, 1, n, given.line, "alternative number", " in 'ALTERNATIVE NAME " + given.id + "'");
      const auto [first, fresh] = named_on.emplace(id, given.line);
      if (!fresh) {
        error(given.line, "alternative " + std::to_string(id) + " is named twice (first on line " +
                              std::to_string(first->second) + ")");
      }
      if (given.name.empty()) error(given.line, "alternative " + std::to_string(id) + " has an empty name");
      if (!is_utf8(given.name))
        error(given.line, "the name of alternative " + std::to_string(id) + " is not UTF-8 text");
      const auto [other, unique] = named_by.emplace(given.name, id);
      if (!unique) same_name_error(other->second, id, given.name, given.line);
      names[id - 1] = given.name;
    }
    // A given name may still equal the number an unnamed alternative is called by.
    for (const auto& [id, line] : named_on) {
      const std::string& name = names[id - 1];
      const auto number = all_digits(name) ? parse_uint64(name) : std::nullopt;
      if (number && *number >= 1 && *number <= n && std::to_string(*number) == name && !named_on.count(*number)) {
        same_name_error(id, *number, name, line);
      }
    }
    return names;
  }

  [[noreturn]] void same_name_error(std::uint64_t a, std::uint64_t b, const std::string& name, long line) const {
    error(line, "alternatives " + std::to_string(std::min(a, b)) + " and " + std::to_string(std::max(a, b)) +
                    " are both named '" + name + "'");
  }

  /// Starts a profile of n alternatives: names, and the per-order scratch of parse_order.
  Profile start_profile(std::uint64_t n) {
    Profile profile;
    profile.alternatives = static_cast<int>(n);
    profile.names = alternative_names(n);
    seen_.assign(n, false);
    return profile;
  }

  /// Order lines `count<separator>order` from lines[from] on; there must be at least one.
  void read_orders(const std::vector<Line>& lines, size_t from, char separator, Profile& profile) {
    if (from >= lines.size()) error(lines.back().number, "no orders after the header");
    std::uint64_t total = 0;
    for (size_t index = from; index < lines.size(); ++index) {
      const Line& l = lines[index];
      if (separator == ':' && l.text[0] == '#') error(l.number, "header line after the data");
      const auto split = l.text.find(separator);
      if (split == std::string::npos) {
        error(l.number, separator == ':' ? "expected 'count: order'" : "expected 'count,order'");
      }
      const std::uint64_t count = whole_number(l.text.substr(0, split), 1, max_voters, l.number, "count");
      total += count;
      if (total > max_voters)
        error(l.number, "the counts add up to more than " + std::to_string(max_voters) + " voters");
      profile.ballots.push_back({static_cast<std::int64_t>(count), parse_order(l.text.substr(split + 1), l.number)});
    }
  }

  /// Fails at the declaring line when a declared count differs from the one the orders give.
  void check_declared(const std::optional<Declared>& declared, std::uint64_t actual, const std::string& what,
                      const std::string& actual_text) const {
    if (declared && declared->value != actual) {
      error(declared->line, what + " is " + std::to_string(declared->value) + " but " + actual_text);
    }
  }

  static std::string sum_text(const Profile& profile) {
    return "the counts sum to " + std::to_string(profile.total_weight());
  }
  static std::string orders_text(const Profile& profile) {
    return "there are " + std::to_string(profile.ballots.size()) + " order lines";
  }

  Profile parse_current(const std::vector<Line>& lines) {
    size_t index = 0;
    for (; index < lines.size() && lines[index].text[0] == '#'; ++index) read_header_line(lines[index]);
    if (!alternatives_) error(lines.front().number, "header lacks '# NUMBER ALTERNATIVES: n'");
    Profile profile = start_profile(alternatives_->value);
    profile.title = title_;
    read_orders(lines, index, ':', profile);
    check_declared(voters_, profile.total_weight(), "NUMBER VOTERS", sum_text(profile));
    check_declared(unique_orders_, profile.ballots.size(), "NUMBER UNIQUE ORDERS", orders_text(profile));
    return profile;
  }

  /// Pre-2022: n; n lines `i,Name`; `voters,sum of counts,unique orders`; `count,order` lines.
  Profile parse_legacy(const std::vector<Line>& lines) {
    const Line& first = lines.front();
    if (!all_digits(first.text)) {
      error(first.number, "expected the number of alternatives on the first line (or a '# KEY: value' header)");
    }
    const std::uint64_t n = whole_number(first.text, 1, max_alternatives, first.number, "number of alternatives");
    if (lines.size() < n + 2) {  // before anything of size n is allocated
      error(lines.back().number,
            "file ends inside the header (" + std::to_string(n) + " name lines and a totals line expected)");
    }
    for (std::uint64_t i = 1; i <= n; ++i) {
      const Line& l = lines[i];
      const auto comma = l.text.find(',');
      if (comma == std::string::npos || trim_blanks(std::string_view(l.text).substr(0, comma)) != std::to_string(i)) {
        error(l.number, "expected '" + std::to_string(i) + ",Name'");
      }
      names_.push_back(
          {std::to_string(i), std::string(trim_blanks(std::string_view(l.text).substr(comma + 1))), l.number});
    }
    Profile profile = start_profile(n);
    const Line& totals = lines[n + 1];
    const auto fields = split_fields(totals.text);
    if (fields.size() != 3) error(totals.number, "expected 'voters,sum of counts,unique orders'");
    const auto declared = [&](const std::string& field, const char* what) {
      return std::optional<Declared>(Declared{whole_number(field, 0, max_voters, totals.number, what), totals.number});
    };
    const auto voters = declared(fields[0], "voters"), sum = declared(fields[1], "sum of counts"),
               unique = declared(fields[2], "unique orders");
    read_orders(lines, n + 2, ',', profile);
    check_declared(voters, profile.total_weight(), "the totals line's voter count", sum_text(profile));
    check_declared(sum, profile.total_weight(), "the totals line's sum of counts", sum_text(profile));
    check_declared(unique, profile.ballots.size(), "the totals line's number of unique orders", orders_text(profile));
    return profile;
  }

  static std::vector<std::string> split_fields(const std::string& text) {
    std::vector<std::string> fields(1);
    for (char c : text) {
      if (c == ',') {
        fields.emplace_back();
      } else {
        fields.back() += c;
      }
    }
    return fields;
  }

  std::string origin_;
  std::optional<Declared> alternatives_, voters_, unique_orders_;
  std::string title_;
  std::vector<NameLine> names_;
  std::map<std::string, long> key_lines_;  // header key -> line, to refuse repeats
  std::vector<bool> seen_;                 // alternatives in the order being parsed
};

bool type_admits(const std::string& declared, DataType actual) {
  if (declared == "toi") return true;
  if (declared == "toc") return actual == DataType::soc || actual == DataType::toc;
  if (declared == "soi") return actual == DataType::soc || actual == DataType::soi;
  if (declared == "soc") return actual == DataType::soc;
  return true;
}

void check_type(const Profile& profile, const std::string& declared, const std::string& origin, const char* source) {
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

Profile parse_lines(const std::vector<Line>& lines, const std::string& origin, const std::string& declared_type) {
  Reader reader(origin);
  Profile profile = reader.parse(lines);
  check_type(profile, reader.declared_type, origin, "DATA TYPE");
  check_type(profile, declared_type, origin, "the file extension");
  validate(profile, origin);
  return profile;
}

}  // namespace

Profile parse_preflib(std::istream& in, const std::string& origin, const std::string& declared_type) {
  return parse_lines(read_lines(in), origin, declared_type);
}

Profile read_preflib(const std::string& path) { return parse_lines(read_lines(path), path, extension_type(path)); }

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
