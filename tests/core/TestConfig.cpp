#include <gtest/gtest.h>

#include <functional>

#include "kollective/core/Config.hpp"
#include "kollective/tests/TestHelpers.hpp"

using kollective::ConfigNode;
using kollective::test::error_of;

TEST(config, typed_values_and_defaults) {
  const auto config = ConfigNode::load_string("a: 3\nb: 2.5\nc: true\nd: [1, 2, 3]\ne: text\nf: 1e3\n", "t.yaml");
  EXPECT_EQ(config.get_int("a", 0), 3);
  EXPECT_DOUBLE_EQ(config.get_double("b", 0), 2.5);
  EXPECT_TRUE(config.get_bool("c", false));
  EXPECT_EQ(config.get_int_list("d", {}), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(config.get_string("e", ""), "text");
  EXPECT_EQ(config.get_int("f", 0), 1000);
  EXPECT_EQ(config.get_int("missing", 42), 42);
}

TEST(config, errors_cite_file_line_and_key) {
  const auto config = ConfigNode::load_string("run:\n  reps: three\n  size: 5\n  typo: 1\n", "exp.yaml");
  const auto run = config.required("run");
  EXPECT_EQ(error_of([&] { run.get_int("reps", 1); }),
            "exp.yaml:2: run.reps: expected an integer (decimal digits, or an exact whole number such as 1e6) from "
            "-2^63 to 2^63 - 1, got 'three'");
  EXPECT_EQ(error_of([&] {
              run.expect_keys({"reps", "size"});
            }),
            "exp.yaml:4: unknown key 'run.typo' (expected one of: reps, size)");
  EXPECT_EQ(error_of([&] { run.get_int_in("size", 1, 10, 20); }), "exp.yaml:3: run.size: 5 is outside [10, 20]");
  EXPECT_NE(error_of([&] { run.required("name"); }).find("missing required key 'run.name'"), std::string::npos);
  EXPECT_NE(error_of([&] {
              run.required("size").as_choice({"a", "b"});
            }).find("'5' is not one of: a, b"),
            std::string::npos);
}

TEST(config, syntax_errors_cite_line) {
  EXPECT_NE(error_of([] { ConfigNode::load_string("a: 1\nb: [1, 2\n", "bad.yaml"); }).find("bad.yaml:"),
            std::string::npos);
  EXPECT_NE(error_of([] { ConfigNode::load_string("- 1\n- 2\n", "list.yaml"); }).find("must be a YAML map"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { ConfigNode::load_file("/nonexistent.yaml"); }).find("config '/nonexistent.yaml' does not exist"),
      std::string::npos);
}

TEST(config, duplicate_keys_are_refused_with_both_lines) {
  EXPECT_EQ(error_of([] { ConfigNode::load_string("runs:\n  - name: a\n    seed: 1\n    seed: 2\n", "dup.yaml"); }),
            "dup.yaml:4: duplicate key 'seed' (first given on line 3)");
  EXPECT_EQ(error_of([] { ConfigNode::load_string("title: a\ntitle: b\n", "top.yaml"); }),
            "top.yaml:2: duplicate key 'title' (first given on line 1)");
}

TEST(config, numbers_are_decimal_only) {
  const auto config = ConfigNode::load_string(
      "hex: 0x10\nhexfloat: 0x1p3\ninf: .inf\nnan: nan\nbig: 99999999999999999999\n"
      "neg: -3\nexp: 2e3\n",
      "n.yaml");
  EXPECT_EQ(error_of([&] { config.get_int("hex", 0); }),
            "n.yaml:1: hex: expected an integer (decimal digits, or an exact whole number such as 1e6) from -2^63 to "
            "2^63 - 1, got '0x10'");
  EXPECT_NE(error_of([&] { config.get_double("hexfloat", 0); }).find("expected a finite decimal number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { config.get_double("inf", 0); }).find("got '.inf'"), std::string::npos);
  EXPECT_NE(error_of([&] { config.get_double("nan", 0); }).find("got 'nan'"), std::string::npos);
  EXPECT_NE(error_of([&] { config.get_int("big", 0); }).find("from -2^63 to 2^63 - 1"), std::string::npos);
  EXPECT_EQ(config.get_int("neg", 0), -3);
  EXPECT_EQ(config.get_int("exp", 0), 2000);
}

TEST(config, aliases_are_expanded_up_to_a_million_values) {
  // Ten nested aliases of ten items would expand to 10^10 values ("billion laughs").
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 10; ++level) {
    const std::string previous = "*a" + std::to_string(level - 1);
    text += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) text += (i ? ", " : "") + previous;
    text += "]\n";
  }
  EXPECT_NE(error_of([&] {
              ConfigNode::load_string(text, "laughs.yaml");
            }).find("holds more than 1000000 values once its aliases (*name) are expanded"),
            std::string::npos);
  // Reusing a map through an alias is fine.
  const auto config = ConfigNode::load_string("base: &b {x: 1}\nrun: *b\n", "m.yaml");
  EXPECT_EQ(config.required("run").get_int("x", 0), 1);
}

TEST(config, many_keys_are_checked_in_n_log_n) {
  std::string text;
  for (int key = 0; key < 200000; ++key) text += "k" + std::to_string(key) + ": 1\n";
  const auto config = ConfigNode::load_string(text, "wide.yaml");  // seconds with a quadratic check
  EXPECT_EQ(config.get_int("k199999", 0), 1);
}

TEST(config, utf16_with_its_byte_order_mark_reads_as_utf8) {
  // "name: é𝄞\n" in UTF-16, both byte orders (𝄞: a surrogate pair), as some editors save "Unicode" text.
  const std::u16string text = u"name: \u00e9\U0001D11E\nn: 3\n";
  for (const bool little : {true, false}) {
    std::string bytes = little ? "\xFF\xFE" : "\xFE\xFF";
    for (const char16_t unit : text) {
      const char low = static_cast<char>(unit & 0xFF), high = static_cast<char>(unit >> 8);
      bytes += little ? std::string{low, high} : std::string{high, low};
    }
    const auto config = ConfigNode::load_string(bytes, "u.yaml");
    EXPECT_EQ(config.required("name").as_string(), "\u00e9\U0001D11E");
    EXPECT_EQ(config.required("n").as_int(), 3);
  }
  EXPECT_NE(error_of([] {
              ConfigNode::load_string(std::string("\xFF\xFEn\0:\0 \0\x00\xD8", 10), "u.yaml");
            }).find("u.yaml:1: UTF-16 text with a lone surrogate"),
            std::string::npos);
  for (const std::string bom : {std::string("\xFF\xFE\0\0", 4), std::string("\0\0\xFE\xFF", 4)}) {
    EXPECT_NE(error_of([&] {
                ConfigNode::load_string(bom + std::string("a\0\0\0", 4), "u.yaml");
              }).find("u.yaml: UTF-32 text; save the config as UTF-8"),
              std::string::npos);
  }
}
