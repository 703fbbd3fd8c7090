/// The options' one declaration (core/OptionFields.hpp): each algorithm's fields agree with its
/// Options{} and its check, the config reference is made from them, and the YAML reader sets,
/// refuses and renames through them.

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/schulze/SchulzeTypes.hpp"
#include "kollective/drivers/ConfigKeys.hpp"
#include "kollective/drivers/OptionReader.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace {

using namespace kollective;
using test::error_of;

/// What every declaration must hold: unique names (former ones included), defaults that pass
/// their own rules, and a config reference row per field showing its default and range.
template <class Options>
void expect_declared(const std::string& section, const OptionFields<Options>& fields) {
  std::set<std::string> names;
  for (const auto& field : fields) {
    EXPECT_TRUE(names.insert(field.name).second) << section << ": " << field.name << " declared twice";
    for (const auto& former : field.former_names)
      EXPECT_TRUE(names.insert(former).second) << section << ": former name " << former << " taken";
    EXPECT_FALSE(field.meaning.empty()) << section << "." << field.name;
    const OptionValue fallback = field.get(Options{});
    EXPECT_EQ(field.problem(fallback), "") << section << "." << field.name << "'s default breaks its rule";
    bool listed = false;
    for (const auto& key : driver::config_keys()) {
      if (key.section != section || key.path != "options." + field.name) continue;
      listed = true;
      EXPECT_EQ(key.fallback, value_text(fallback)) << section << "." << field.name;
      EXPECT_EQ(key.range.rfind(field.range_text(), 0), 0u) << section << "." << field.name;
      EXPECT_EQ(key.former_names, field.former_names);
    }
    EXPECT_TRUE(listed) << section << "." << field.name << " is missing from the config reference";
  }
}

}  // namespace

TEST(option_fields, every_algorithm_declares_its_options_once_and_the_reference_shows_them) {
  expect_declared("schulze", schulze::option_fields());
  expect_declared("kemeny", kemeny::option_fields());
  expect_declared("coalition", coalition::option_fields());
  expect_declared("ranksvm", ranksvm::option_fields());
  expect_declared("ranksvm", ranksvm::evaluation_fields());
  // Every options row of the reference comes from a declaration (log is the driver's own).
  for (const auto& key : driver::config_keys()) {
    if (key.path.rfind("options.", 0) != 0 || key.section == "run" || key.path == "options.log") continue;
    const std::string name = key.path.substr(8);
    const bool declared = (key.section == "schulze" && find_option(schulze::option_fields(), name)) ||
                          (key.section == "kemeny" && find_option(kemeny::option_fields(), name)) ||
                          (key.section == "coalition" && find_option(coalition::option_fields(), name)) ||
                          (key.section == "ranksvm" && (find_option(ranksvm::option_fields(), name) ||
                                                        find_option(ranksvm::evaluation_fields(), name)));
    EXPECT_TRUE(declared) << key.section << " " << key.path << " is in the reference but declared nowhere";
  }
}

TEST(option_fields, check_is_the_declared_ranges) {
  kemeny::Options kemeny_options;
  kemeny_options.dp_limit = kemeny::dp_max_alternatives + 1;
  ASSERT_TRUE(kemeny::check(kemeny_options));
  EXPECT_EQ(kemeny::check(kemeny_options)->option, "dp_limit");
  EXPECT_EQ(kemeny::check(kemeny_options)->problem, "must be in -1..40, got 41");
  kemeny_options = {};
  kemeny_options.time_limit = 0;  // no limit, as for every algorithm
  EXPECT_FALSE(kemeny::check(kemeny_options));
  kemeny_options.time_limit = -1;
  EXPECT_EQ(kemeny::check(kemeny_options)->option, "time_limit");
  EXPECT_EQ(kemeny::check(kemeny_options)->problem, "must be a number >= 0, got -1");
  kemeny_options = {};  // a setting of auto's branch and cut beside another method
  kemeny_options.ladders = true;
  EXPECT_FALSE(kemeny::check(kemeny_options));
  kemeny_options.method = kemeny::Method::dp;
  ASSERT_TRUE(kemeny::check(kemeny_options));
  EXPECT_EQ(kemeny::check(kemeny_options)->option, "ladders");
  EXPECT_EQ(kemeny::check(kemeny_options)->problem, "applies to method auto only (its branch and cut)");

  ranksvm::Options train;
  train.eps = 1;
  EXPECT_EQ(ranksvm::check(train)->problem, "must be in (0, 1), got 1");
  train = {};
  train.C = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ranksvm::check(train)->problem, "must be a positive number, got inf");

  coalition::Options coalition_options;  // a rule joining two fields stays the algorithm's
  coalition_options.time_limit = 1;
  EXPECT_EQ(coalition::check(coalition_options)->option, "time_limit");
  coalition_options.method = coalition::Method::ip;
  EXPECT_FALSE(coalition::check(coalition_options));
}

TEST(option_fields, set_option_refuses_without_changing_the_options) {
  kemeny::Options options;
  const auto& list_limit = *find_option(kemeny::option_fields(), "list_limit");
  EXPECT_TRUE(set_option(options, list_limit, OptionValue(std::int64_t{0})));
  EXPECT_TRUE(set_option(options, list_limit, OptionValue(2.0)));  // the wrong kind
  EXPECT_EQ(options.list_limit, kemeny::Options{}.list_limit);
  EXPECT_FALSE(set_option(options, list_limit, OptionValue(std::int64_t{7})));
  EXPECT_EQ(options.list_limit, 7);
  const auto& method = *find_option(kemeny::option_fields(), "method");
  EXPECT_EQ(set_option(options, method, OptionValue(std::string("dynamic")))->problem,
            "must be one of auto, enumeration, dp or heuristic, got 'dynamic'");
  for (const char* name : {"auto", "enumeration", "dp", "heuristic"}) {
    ASSERT_FALSE(set_option(options, method, OptionValue(std::string(name))));
    EXPECT_STREQ(kemeny::to_string(options.method), name);
  }
}

TEST(option_fields, yaml_reads_through_the_declaration_and_former_names_with_a_warning) {
  const auto config = ConfigNode::load_string(
      "old: {method: ip, values: float}\nboth: {values: float, precision: double}\nbad: {time_limit: -2}\n"
      "joined: {method: idp, time_limit: 5}\n",
      "o.yaml");
  coalition::Options options;
  driver::read_fields(config.required("old"), coalition::option_fields(), options);
  EXPECT_EQ(options.method, coalition::Method::ip);
  EXPECT_EQ(options.precision, Precision::float32);  // `values` is precision's former name
  EXPECT_EQ(error_of([&] { driver::read_fields(config.required("both"), coalition::option_fields(), options); }),
            "o.yaml:2: both.values: gives the former name of 'precision' beside it: keep only 'precision'");
  EXPECT_EQ(error_of([&] { driver::read_fields(config.required("bad"), coalition::option_fields(), options); }),
            "o.yaml:3: bad.time_limit: must be a number >= 0, got -2");
  coalition::Options joined;
  driver::read_fields(config.required("joined"), coalition::option_fields(), joined);
  EXPECT_EQ(error_of([&] {
              driver::refuse(config.required("joined"), coalition::option_fields(), coalition::check(joined));
            }),
            "o.yaml:4: joined.time_limit: applies to methods ip and auto only (dp and idp cannot stop early with a "
            "bound)");
  EXPECT_EQ(driver::former_keys_under("coalition", "options"), std::vector<std::string>{"values"});
}
