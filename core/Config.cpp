#include "kollective/core/Config.hpp"

#include "kollective/core/Parse.hpp"
#include "kollective/core/TextInput.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace kollective {

ConfigNode ConfigNode::load_file(const std::string& path) {
  std::ifstream in = open_input(path, "config");
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) fail("cannot read config '", path, "'");
  return load_string(text.str(), path);
}

namespace {

/// Walks the config as its readers will, aliases expanded. yaml-cpp keeps the first of two equal
/// keys without a word (a config with both is ambiguous): refused. An alias (*name) shares the
/// anchored node, so ten nested aliases of ten items each stand for 10^10 values ("billion
/// laughs") that every reader of the config would walk: more than max_values are refused. An
/// alias inside its own anchor (`a: &x [*x]`) nests without end: nesting is bounded too.
class ConfigChecker {
 public:
  static constexpr std::int64_t max_values = 1000000;
  static constexpr int max_depth = 64;
  explicit ConfigChecker(std::string origin) : origin_(std::move(origin)) {}

  void check(const YAML::Node& node, int depth = 0) {
    if (++values_ > max_values) {
      fail_at(origin_, node.Mark().line + 1, "the config holds more than ", max_values,
              " values once its aliases (*name) are expanded");
    }
    if (depth > max_depth) {
      fail_at(origin_, node.Mark().line + 1, "the config nests lists and maps more than ", max_depth,
              " levels deep (or an alias *name refers to its own anchor)");
    }
    if (node.IsSequence()) {
      for (const auto& item : node) check(item, depth + 1);
    } else if (node.IsMap()) {
      std::map<std::string, int> first_line;
      for (const auto& entry : node) {
        const int line = entry.first.Mark().line + 1;
        if (entry.first.IsScalar()) {
          if (entry.first.Scalar() == "<<") {  // yaml-cpp would read it as a key named "<<"
            fail_at(origin_, line, "YAML merge keys (<<) are not supported: write the keys out");
          }
          const auto [earlier, inserted] = first_line.emplace(entry.first.Scalar(), line);
          if (!inserted) {
            fail_at(origin_, line, "duplicate key '", entry.first.Scalar(), "' (first given on line ", earlier->second,
                    ")");
          }
        }
        check(entry.first, depth + 1);
        check(entry.second, depth + 1);
      }
    }
  }

 private:
  std::string origin_;
  std::int64_t values_ = 0;
};

/// Events of a YAML document, ignored: only where documents start matters.
struct DocumentStarts : YAML::EventHandler {
  long line = 0;  ///< of the last document started
  void OnDocumentStart(const YAML::Mark& mark) override { line = mark.line + 1; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// The line where a second YAML document starts, or 0. Two documents at most are parsed:
/// yaml-cpp's LoadAll never ends on some malformed input, whose parser yields empty documents
/// without end (found by fuzzing).
long second_document_line(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  if (!parser.HandleNextDocument(starts)) return 0;
  return parser.HandleNextDocument(starts) ? std::max(starts.line, 1L) : 0;
}

/// A code point as UTF-8.
void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

/// A config saved as UTF-16 with its byte order mark (as some editors save "Unicode" text, and as
/// YAML allows) in UTF-8; any other text as it is.
std::string utf8_from_utf16(std::string text, const std::string& origin) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  if (text.size() >= 4 && byte(0) == 0 && byte(1) == 0 && byte(2) == 0xFE && byte(3) == 0xFF)
    fail_at(origin, 0, "UTF-32 text; save the config as UTF-8 (or UTF-16)");
  if (text.size() < 2 || !((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF))) return text;
  const bool little = byte(0) == 0xFF;
  if (little && text.size() >= 4 && byte(2) == 0 && byte(3) == 0)
    fail_at(origin, 0, "UTF-32 text; save the config as UTF-8 (or UTF-16)");
  if (text.size() % 2 != 0) fail_at(origin, 0, "UTF-16 text of an odd number of bytes");
  const auto unit = [&](std::size_t i) -> char32_t {
    return little ? byte(i) | byte(i + 1) << 8 : byte(i) << 8 | byte(i + 1);
  };
  std::string out;
  for (std::size_t i = 2; i < text.size(); i += 2) {
    char32_t c = unit(i);
    if (c >= 0xD800 && c < 0xDC00 && i + 3 < text.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) < 0xE000) {
      c = 0x10000 + ((c - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
      i += 2;
    } else if (c >= 0xD800 && c < 0xE000) {
      fail_at(origin, 1 + std::count(out.begin(), out.end(), '\n'), "UTF-16 text with a lone surrogate");
    }
    append_utf8(out, c);
  }
  return out;
}

}  // namespace

ConfigNode ConfigNode::load_string(std::string text, const std::string& origin) {
  text = utf8_from_utf16(std::move(text), origin);
  strip_bom(text);                                                          // spreadsheets and some editors write one
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {  // yaml-cpp misreports it
    fail_at(origin, 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n'),
            LineReader::nul_byte);
  }
  try {
    if (const long line = second_document_line(text)) {
      fail_at(origin, line, "the config holds more than one YAML document (separated by '---'); put every run in one");
    }
    YAML::Node root = YAML::Load(text);
    ConfigChecker(origin).check(root);
    if (!root.IsMap()) fail_at(origin, 1, "a config must be a YAML map of keys to values");
    return ConfigNode(root, origin, "");
  } catch (const YAML::Exception& e) {
    fail_at(origin, e.mark.line + 1, "YAML syntax error: ", e.msg);
  }
}

ConfigNode::ConfigNode(YAML::Node node, std::string file, std::string key_path)
    : node_(std::make_shared<const YAML::Node>(std::move(node))),
      file_(std::move(file)),
      key_path_(std::move(key_path)) {}

bool ConfigNode::is_map() const { return node_->IsMap(); }
bool ConfigNode::is_sequence() const { return node_->IsSequence(); }
bool ConfigNode::is_scalar() const { return node_->IsScalar(); }

long ConfigNode::line() const {
  const auto mark = node_->Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

void ConfigNode::error(const std::string& message) const {
  fail_at(file_, line(), key_path_.empty() ? "" : key_path_ + ": ", message);
}

bool ConfigNode::has(const std::string& key) const {
  return node_->IsMap() && (*node_)[key].IsDefined() && !(*node_)[key].IsNull();
}

void ConfigNode::expect_map() const {
  if (!node_->IsMap()) error("expected a map of keys to values");
}

ConfigNode ConfigNode::required(const std::string& key) const {
  expect_map();
  const std::string path = key_path_.empty() ? key : key_path_ + "." + key;
  if (!has(key)) {
    for (const auto& entry : *node_) {  // a present key that looks like a misspelling of this one
      const std::string given = entry.first.IsScalar() ? entry.first.Scalar() : "";
      if (!given.empty() && !did_you_mean(given, {key}).empty())
        fail_at(file_, line(), "missing required key '", path, "' ('", given, "' given: did you mean '", key, "'?)");
    }
    fail_at(file_, line(), "missing required key '", path, "'");
  }
  return ConfigNode((*node_)[key], file_, path);
}

namespace {
void collect_leaves(const YAML::Node& node, const std::string& path,
                    std::vector<std::pair<std::string, std::string>>& leaves) {
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "?";
      collect_leaves(entry.second, path.empty() ? key : path + "." + key, leaves);
    }
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect_leaves(node[i], path + "[" + std::to_string(i) + "]", leaves);
  } else {
    leaves.emplace_back(path, node.IsScalar() ? node.Scalar() : "");
  }
}
}  // namespace

std::vector<std::pair<std::string, std::string>> ConfigNode::leaves() const {
  std::vector<std::pair<std::string, std::string>> found;
  collect_leaves(*node_, "", found);
  return found;
}

std::vector<ConfigNode> ConfigNode::elements() const {
  std::vector<ConfigNode> items;
  if (node_->IsSequence()) {
    for (size_t i = 0; i < node_->size(); ++i) {
      items.emplace_back((*node_)[i], file_, key_path_ + "[" + std::to_string(i) + "]");
    }
  } else {
    error("expected a list ([a, b] or one '- item' per line)");
  }
  return items;
}

void ConfigNode::expect_keys(std::initializer_list<const char*> allowed) const {
  expect_keys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void ConfigNode::expect_keys(const std::vector<std::string>& allowed, const std::vector<std::string>& former) const {
  expect_map();
  for (const auto& entry : *node_) {
    const auto mark = entry.first.Mark();
    if (!entry.first.IsScalar()) fail_at(file_, mark.line + 1, "a key must be a plain word, not a list or map");
    const std::string key = entry.first.Scalar();
    const std::string path = key_path_.empty() ? key : key_path_ + "." + key;
    bool known = false;
    for (const std::string& name : allowed) known = known || key == name;
    for (const std::string& name : former) known = known || key == name;
    if (!known) {
      std::string list;
      for (const std::string& name : allowed) list += list.empty() ? name : ", " + name;
      fail_at(file_, mark.line + 1, "unknown key '", path, "'", did_you_mean(key, allowed), " (expected one of: ", list,
              ")");
    }
    if (entry.second.IsNull())
      fail_at(file_, mark.line + 1, "key '", path, "' has no value (give one, or leave the key out)");
  }
}

std::string ConfigNode::as_string() const {
  if (!node_->IsScalar()) error("expected a single value");
  return node_->Scalar();
}

std::int64_t ConfigNode::as_int() const {
  const std::string text = as_string();
  if (const auto value = parse_int64(text)) return *value;
  // Integral decimal notation such as 1e6 is accepted too (exactly representable values only).
  const auto real = parse_decimal(text);
  if (real && *real == std::floor(*real) && std::fabs(*real) <= 9007199254740992.0) {
    return static_cast<std::int64_t>(*real);
  }
  error("expected an integer (decimal digits, or an exact whole number such as 1e6) from -2^63 to 2^63 - 1, got '" +
        text + "'");
}

double ConfigNode::as_double() const {
  const std::string text = as_string();
  const auto value = parse_decimal(text);
  if (!value) error("expected a finite decimal number, got '" + text + "'");
  return *value;
}

bool ConfigNode::as_bool() const {
  const std::string text = as_string();
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  error("expected true or false, got '" + text + "'");
}

std::string ConfigNode::as_choice(std::initializer_list<const char*> choices) const {
  return as_choice(std::vector<std::string>(choices.begin(), choices.end()));
}

std::string ConfigNode::as_choice(const std::vector<std::string>& choices) const {
  const std::string text = as_string();
  std::string list;
  for (const std::string& choice : choices) {
    if (text == choice) return text;
    list += list.empty() ? choice : std::string(", ") + choice;
  }
  error("'" + text + "' is not one of: " + list + did_you_mean(text, choices));
}

std::string ConfigNode::get_string(const std::string& key, const std::string& fallback) const {
  return has(key) ? required(key).as_string() : fallback;
}
std::int64_t ConfigNode::get_int(const std::string& key, std::int64_t fallback) const {
  return has(key) ? required(key).as_int() : fallback;
}
double ConfigNode::get_double(const std::string& key, double fallback) const {
  return has(key) ? required(key).as_double() : fallback;
}
bool ConfigNode::get_bool(const std::string& key, bool fallback) const {
  return has(key) ? required(key).as_bool() : fallback;
}

std::int64_t ConfigNode::get_int_in(const std::string& key, std::int64_t fallback, std::int64_t low,
                                    std::int64_t high) const {
  if (!has(key)) return fallback;
  const ConfigNode child = required(key);
  const std::int64_t value = child.as_int();
  if (value < low || value > high) {
    child.error(std::to_string(value) + " is outside [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  }
  return value;
}

std::vector<std::int64_t> ConfigNode::get_int_list(const std::string& key, std::vector<std::int64_t> fallback) const {
  if (!has(key)) return fallback;
  std::vector<std::int64_t> values;
  for (const auto& item : required(key).elements()) {
    const std::int64_t value = item.as_int();
    if (std::find(values.begin(), values.end(), value) != values.end()) {
      item.error("the value " + std::to_string(value) + " is given twice");
    }
    values.push_back(value);
  }
  return values;
}

}  // namespace kollective
