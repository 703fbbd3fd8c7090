/// \file RankSvmRunner.cpp
/// `algorithm: ranksvm`: trains a linear RankSVM by TRON on the device (or evaluates a model
/// file), and reports pairwise accuracy and NDCG on the training and test sets.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <optional>
#include <variant>

#include "kollective/algorithms/ranksvm/RankSvmReference.hpp"
#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/TextInput.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/drivers/Columns.hpp"
#include "kollective/drivers/ConfigKeys.hpp"
#include "kollective/drivers/OptionReader.hpp"
#include "kollective/drivers/RunLoop.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/drivers/Runner.hpp"
#include "kollective/drivers/Reporting.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {

using Space = Kokkos::DefaultExecutionSpace;

/// A data set: a LETOR file or the synthetic generator.
struct DataSource {
  std::string file;     ///< resolved relative to the config
  std::string written;  ///< as the config gives it (the tables' `train`: the same wherever it runs)
  std::string shape;    ///< mq2007 | mslr
  std::int64_t queries = 0, documents = 0;
  int features = 0;
  std::uint64_t seed = 1;
  std::string describe() const {
    return file.empty() ? shape + "(q=" + std::to_string(queries) + ", docs=" + std::to_string(documents) +
                              ", f=" + std::to_string(features) + ", seed=" + std::to_string(seed) + ")"
                        : "file:" + written;
  }
};

struct RankSvmRun {
  DataSource train, test;
  bool has_test = false;
  std::string model_in;  ///< evaluate this model instead of training
  ranksvm::Options options;
  Measurement measurement;  ///< verify auto: the pair reference checks sets of up to verify_auto_pairs
  ranksvm::Evaluation evaluation;
  bool write_model = true, write_scores = false;
  bool write_pairs = false;  ///< the training set's explicit pair differences (LIBLINEAR input)
};

DataSource parse_source(const ConfigNode& node, const RunContext& context) {
  DataSource source;
  if (node.is_scalar()) {
    source.file = context.input_path(node);
    source.written = node.as_string();
    return source;
  }
  node.expect_keys(keys_under("ranksvm", ""));
  const ConfigNode generator = node.required("generator");
  generator.expect_keys(keys_under("ranksvm", "generator"));
  source.shape = generator.required("shape").as_choice({"mq2007", "mslr"});
  const bool mq = source.shape == "mq2007";
  source.queries = generator.get_int_in("queries", mq ? 1692 : 18919, 1, 100000000);
  source.documents = generator.get_int_in("documents", mq ? 69623 : 2270296, source.queries, 4000000000ll);
  source.features = static_cast<int>(generator.get_int_in("features", mq ? 46 : 136, 1, 100000));
  source.seed = static_cast<std::uint64_t>(generator.get_int_in("seed", 1, 0, 0x7fffffffffffffffll));
  return source;
}

RankSvmRun parse(const ConfigNode& run, const RunContext& context) {
  run.expect_keys(keys_under("run", "", "ranksvm"));
  RankSvmRun settings;
  bool log = true;  // TRON's iterations on stderr
  settings.measurement = parse_measurement(run);
  settings.options.communicator = shared_by(settings.measurement);
  const ConfigNode input = run.required("input");
  input.expect_keys(keys_under("ranksvm", "input"));
  settings.train = parse_source(input.required("train"), context);
  if (input.has("test")) settings.test = parse_source(input.required("test"), context), settings.has_test = true;
  if (input.has("model")) {
    settings.model_in = context.input_path(input.required("model"));
    if (run.has("verify") && settings.measurement.verify == Verify::always)
      run.required("verify").error("verify: true checks a training, and with input.model nothing is trained");
    if (run.has("write") && run.required("write").has("model") && run.required("write").get_bool("model", false))
      run.required("write").required("model").error("write.model: a given model is not written again");
  }
  if (run.has("options")) {
    const ConfigNode options = run.required("options");
    options.expect_keys(keys_under("ranksvm", "options"), former_keys_under("ranksvm", "options"));
    read_fields(options, ranksvm::option_fields(), settings.options);
    refuse(options, ranksvm::option_fields(), ranksvm::check(settings.options));
    read_fields(options, ranksvm::evaluation_fields(), settings.evaluation);
    log = options.get_bool("log", log);
  }
  settings.options.reporter = reporter(log);
  if (run.has("write")) {
    run.required("write").expect_keys(keys_under("ranksvm", "write"));
    settings.write_model = run.required("write").get_bool("model", true);
    settings.write_scores = run.required("write").get_bool("scores", false);
    settings.write_pairs = run.required("write").get_bool("pairs", false);
  }
  return settings;
}

ranksvm::RankData load(const DataSource& source, int features) {
  if (!source.file.empty()) return ranksvm::read_letor(source.file, features);
  return ranksvm::synthetic_letor(source.shape, source.queries, source.documents, source.features, source.seed);
}

double mean(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

/// A count summed over the ranks when `shared`.
std::int64_t total(std::int64_t mine, bool shared) {
  std::vector<std::int64_t> sum{mine};
  if (shared) world().allreduce_sum(sum);
  return sum[0];
}

/// Pairwise accuracy and NDCG columns for one data set, prefixed `prefix`; `shared`: each rank
/// holds some of its queries (a collective). A set without preference pairs (all labels equal in
/// every query) has no pairwise accuracy: the column is left out rather than filled with 0/0.
void add_metrics(Row& row, const std::string& prefix, const RankSvmRun& settings, const ranksvm::RankData& data,
                 const std::vector<double>& w, bool shared = false) {
  const auto scores = ranksvm::predict(data, w);
  const std::int64_t pairs = total(ranksvm::preference_pairs(data), shared);
  if (pairs > 0) {
    row.set(prefix + "pairwise_accuracy",
            static_cast<double>(total(ranksvm::pairwise_correct(data, scores), shared)) / static_cast<double>(pairs));
  }
  auto over_queries = [&](const std::vector<double>& mine) {
    return mean(shared ? world().allgather_values(mine) : mine);
  };
  for (auto k : settings.evaluation.ndcg_k) {
    row.set(prefix + "ndcg@" + std::to_string(k),
            over_queries(ranksvm::ndcg_at(data, scores, static_cast<int>(k), settings.evaluation.ndcg)));
  }
  row.set(prefix + "mean_ndcg", over_queries(ranksvm::mean_ndcg(data, scores, settings.evaluation.ndcg)));
}

/// Scores in the file's line order from every rank's share (a collective).
void write_shared_scores(const ranksvm::RankData& share, const std::vector<double>& w, const std::string& path) {
  ranksvm::RankData whole;
  whole.file_index = world().allgather_values(share.file_index);
  ranksvm::write_scores(whole, world().allgather_values(ranksvm::predict(share, w)), path);
}

/// The feature range over every rank's share (a collective).
ranksvm::FeatureRange shared_feature_range(const ranksvm::RankData& share) {
  ranksvm::FeatureRange range = ranksvm::feature_range(share);
  for (double& low : range.low) low = -low;
  world().allreduce_max(range.low);
  world().allreduce_max(range.high);
  for (double& low : range.low) low = -low;
  return range;
}

/// Before training: fails if the explicit pair differences of `data` may not fit on the disk of
/// `path` (a pair takes up to 26 bytes per feature: MSLR-WEB30K's 2.9e8 pairs, about 1 TB).
void check_pairs_fit(const ranksvm::RankData& data, const std::string& path) {
  const std::int64_t pairs = ranksvm::preference_pairs(data);
  const double bytes = static_cast<double>(pairs) * (26.0 * data.features + 4);
  std::error_code error;
  const auto space = std::filesystem::space(std::filesystem::path(path).parent_path(), error);
  if (!error && bytes > static_cast<double>(space.available)) {
    fail("writing the ", pairs, " preference pairs to '", path, "' may take ", bytes / 1e9, " GB; the disk has ",
         static_cast<double>(space.available) / 1e9, " GB free");
  }
}

/// Huge feature values (finite, but with overflowing products) could still make a score or the
/// objective infinite or NaN: refuse to present such a row as a result.
void check_finite(const Row& row) {
  for (const auto& [column, cell] : row.cells()) {
    if (const auto* value = std::get_if<double>(&cell); value && !std::isfinite(*value)) {
      fail(column, " is not finite (feature values too large? try options: {scale: true})");
    }
  }
}

/// A set's sizes as checked: features, and queries (0 where the file was not read).
struct CheckedSource {
  int features = 0;
  std::int64_t queries = 0;
};

/// Before the first run: a file input exists and parses (one over 256 MiB, which would cost too
/// much to read twice, is only checked for access), a generated set fits host memory. Returns
/// its sizes (`features` where the file was not read).
CheckedSource check_source(const DataSource& source, int features) {
  if (source.file.empty()) {
    require_host_memory(checked_mul(source.documents, source.features, "documents x features") * 8,
                        "the feature matrix of " + source.describe());
    return {source.features, source.queries};
  }
  check_input_file(source.file, "LETOR file");
  std::error_code error;
  if (std::filesystem::file_size(source.file, error) > (std::uintmax_t{1} << 28) && !error) return {features, 0};
  const ranksvm::RankData data = ranksvm::read_letor(source.file, features);
  return {data.features, data.queries()};
}

/// The `verified` cell: the pair reference's check of the training, where `verify` asks for it (a
/// collective where each rank read its queries: the same answer on every rank).
std::string verify(const RankSvmRun& settings, const ranksvm::RankData& train, bool read_share,
                   const ranksvm::Result& result) {
  const Verify verify = settings.measurement.verify;
  const bool small = total(ranksvm::preference_pairs(train), read_share) <= ranksvm::verify_auto_pairs;
  if (verify == Verify::never || (verify == Verify::automatic && !small)) return "skipped";
  return ranksvm::verify(train, settings.options, result, read_share);
}

/// A point's report: the training set and options, the library's training fields (none for a
/// given model), and the rates and seconds that need the median.
struct RankSvmPoint {
  const Point& point;
  const RankSvmRun& settings;
  const ranksvm::Result* result;  ///< null: a given model, evaluated
  std::int64_t documents = 0, queries = 0, pairs = 0;
  int features = 0;
  double model_objective = 0;  ///< a given model's objective on the training set
};

const ResultFields<RankSvmPoint>& ranksvm_fields() {
  using F = FieldKind;
  using P = RankSvmPoint;
  auto trained = [](const P& p) { return p.result != nullptr; };
  auto given = [](const P& p) { return p.result == nullptr; };
  static const ResultFields<P> fields = [&] {
    auto training = adapt<P>(ranksvm::result_fields(), [](const P& p) -> const ranksvm::Result& { return *p.result; });
    for (auto& each : training) {  // none for a given model, but its objective on the training set
      const bool objective = each.name == "objective";
      each.get = [get = each.get, objective](const P& p) -> std::optional<Cell> {
        if (p.result) return get(p);
        return objective ? std::optional<Cell>(make_cell(p.model_objective)) : std::nullopt;
      };
    }
    return joined<P>({
        {field<P>("run", F::context, "", "the run's name", [](const P& p) { return p.point.run; }),
         field<P>("train", F::context, "", "the training set: a file, or a generator and its parameters",
                  [](const P& p) { return p.point.input; }),
         field<P>("documents", F::context, "count", "documents of the training set",
                  [](const P& p) { return p.documents; }),
         field<P>("queries", F::context, "count", "queries", [](const P& p) { return p.queries; }),
         field<P>("features", F::context, "count", "features", [](const P& p) { return p.features; }),
         field<P>("pairs", F::context, "count", "preference pairs", [](const P& p) { return p.pairs; }),
         field<P>("C", F::context, "", "the loss's weight", [](const P& p) { return p.settings.options.C; }),
         field<P>("eps", F::context, "", "TRON's stopping tolerance",
                  [](const P& p) { return p.settings.options.eps; }),
         field<P>("precision", F::context, "", "X's precision on the device",
                  [](const P& p) { return to_string(p.settings.options.precision); })
             .formerly("feature_precision"),
         field_where<P>("model", F::context, "", "the model file evaluated instead of a training", given,
                        [](const P& p) { return p.settings.model_in; })},
        training,
        adapt<P>(point_timing(), [](const P& p) -> const Point& { return p.point; }),
        {field_where<P>("iteration_s", F::timing, "s", "per TRON iteration, after the setup", trained,
                        [](const P& p) {
                          const double seconds = p.point.times->median();
                          return p.result->iterations ? (seconds - p.result->setup_s) / p.result->iterations : 0.0;
                        })
             .formerly("seconds_per_iteration")},
        adapt<P>(point_check(), [](const P& p) -> const Point& { return p.point; }),
    });
  }();
  return fields;
}

/// The columns add_metrics sets, by family ("train_ndcg@k": one per k of ndcg_k), and the test set's.
std::vector<FieldRule> metric_columns() {
  std::vector<FieldRule> rules;
  for (const std::string set : {"train_", "test_"}) {
    rules.push_back({set + "pairwise_accuracy", FieldKind::answer, "", "preference pairs the model orders right"});
    rules.push_back({set + "ndcg@k", FieldKind::answer, "", "mean NDCG@k over the queries (one column per k)"});
    rules.push_back({set + "mean_ndcg", FieldKind::answer, "", "mean over the queries of LETOR's mean NDCG"});
    if (set == "train_") {
      rules.push_back({"test", FieldKind::context, "", "the test set"});
      rules.push_back({"test_pairs", FieldKind::context, "count", "the test set's preference pairs"});
    }
  }
  return rules;
}

void train_and_evaluate(const RankSvmRun& settings, const RunContext& context, Table& table) {
  std::vector<double> w = settings.model_in.empty() ? std::vector<double>{} : ranksvm::read_model(settings.model_in);
  // Training shared by the ranks reads each rank's queries of a file only (the explicit pairs
  // need the whole set).
  const bool read_share = settings.measurement.shared && world().size() > 1 && !settings.train.file.empty() &&
                          w.empty() && !settings.write_pairs;
  ranksvm::RankData train = read_share ? ranksvm::read_letor_share(settings.train.file, world())
                                       : load(settings.train, w.empty() ? 0 : static_cast<int>(w.size()));
  ranksvm::Options options = settings.options;
  options.data_is_share = read_share;
  options.measure_bandwidth = true;  // the table's read_x_twice_s and copy_bytes_per_s
  ranksvm::RankData test;
  if (settings.has_test) test = load(settings.test, train.features);
  for (const ranksvm::RankData* data : {&train, &test}) {
    for (const std::string& warning : data->warnings) {
      if (settings.measurement.shared) {  // every rank read the same file
        warn(warning);
      } else {
        warn_from_this_rank(warning);
      }
    }
  }
  if (settings.has_test && test.features != train.features) {
    fail("the test set has ", test.features, " features, the training set ", train.features);
  }
  if (settings.evaluation.scale) {
    const auto range = read_share ? shared_feature_range(train) : ranksvm::feature_range(train);
    ranksvm::scale_features(train, range);
    if (settings.has_test) ranksvm::scale_features(test, range);
  }
  if (settings.write_pairs) check_pairs_fit(train, context.output_file("_pairs.txt"));
  const std::int64_t pairs = total(ranksvm::preference_pairs(train), read_share);
  const std::int64_t documents = total(train.docs, read_share), queries = total(train.queries(), read_share);
  if (w.empty() && pairs == 0) {
    fail("the training set ", settings.train.describe(),
         " has no preference pairs (in every query all documents have the same label): nothing to learn");
  }
  Point point{context.run_name, settings.train.describe()};
  std::optional<ranksvm::Result> result;
  Timing times;
  double model_objective = 0;
  if (w.empty()) {
    Space space;
    Workspace<Space::memory_space> workspace;  // X on the device and its buffers, reused by the repetitions
    result =
        measure(space, settings.measurement, times, [&] { return ranksvm::train(space, train, options, workspace); });
    workspace.release();  // before the checks
    w = result->w;
    const auto exchange_s = settings.measurement.shared ? std::optional(result->exchange_s) : std::nullopt;
    point = timed_point(context.run_name, settings.train.describe(), times, settings.measurement,
                        verify(settings, train, read_share, *result), exchange_s);
  } else {
    // The objective of a given model on this data (with this C): compares solvers' optima.
    model_objective = ranksvm::evaluate(Space(), train, settings.options.C, w, w).f;
    if (!std::isfinite(model_objective)) {
      fail("the model '", settings.model_in, "' has a non-finite objective (", model_objective, ") on ",
           settings.train.describe(), ": its weights times the feature values overflow");
    }
  }
  Row row;
  const RankSvmPoint reported{point,          settings,       result ? &*result : nullptr, documents, queries, pairs,
                              train.features, model_objective};
  set_fields(row, ranksvm_fields(), reported);
  std::cout << context.run_name << ": RankSVM on " << settings.train.describe() << " (" << documents << " documents, "
            << queries << " queries, " << train.features << " features)\n  "
            << summary_line(row, rules_of(ranksvm_fields())) << "\n";
  add_metrics(row, "train_", settings, train, w, read_share);
  if (settings.has_test) {
    row.set("test", settings.test.describe()).set("test_pairs", ranksvm::preference_pairs(test));
    add_metrics(row, "test_", settings, test, w);
  }
  check_finite(row);  // before any file is written
  if (settings.model_in.empty() && settings.write_model) ranksvm::write_model(w, context.output_file("_model.txt"));
  if (settings.write_scores) {
    const ranksvm::RankData& scored = settings.has_test ? test : train;
    if (read_share && !settings.has_test) {
      write_shared_scores(train, w, context.output_file("_scores.txt"));
    } else {
      ranksvm::write_scores(scored, ranksvm::predict(scored, w), context.output_file("_scores.txt"));
    }
  }
  // The explicit pair differences: LIBLINEAR's own L2-loss SVM (`-s 2 -B -1`) minimizes the same
  // f on them (scripts/compare_liblinear.sh).
  if (settings.write_pairs) ranksvm::write_pair_differences(train, context.output_file("_pairs.txt"));
  table.add(row);
}

class RankSvmJob : public Job {
 public:
  RankSvmJob(const ConfigNode& run, const RunContext& context) : settings_(parse(run, context)) {}

  void validate(const RunContext&) const override {
    int features = 0;
    if (!settings_.model_in.empty()) {
      check_input_file(settings_.model_in, "model file");
      features = static_cast<int>(ranksvm::read_model(settings_.model_in).size());
    }
    // A file read with a feature count fails on a wider line itself; a generator's count is given.
    const CheckedSource train = check_source(settings_.train, features);
    const int train_features = train.features;
    const auto shared = ranksvm::shared_training_problem(train.queries, settings_.options.communicator.size());
    if (settings_.model_in.empty() && train.queries > 0 && shared)  // `queries` 0: a file too large to read twice
      fail("the training set ", settings_.train.describe(), ": ", *shared, "; or distribute: points");
    if (features > 0 && train_features != features) {
      fail("the model '", settings_.model_in, "' has ", features, " weights, the training set ",
           settings_.train.describe(), " ", train_features, " features");
    }
    if (!settings_.has_test) return;
    const int test_features = check_source(settings_.test, train_features).features;
    if (test_features != train_features) {
      fail("the test set ", settings_.test.describe(), " has ", test_features, " features, the training set ",
           train_features);
    }
  }

  bool shares_solves() const override { return settings_.measurement.shared; }

  void run_point(std::size_t, const RunContext& context, Table& table) const override {
    train_and_evaluate(settings_, context, table);
  }

 private:
  RankSvmRun settings_;
};

}  // namespace

std::unique_ptr<Job> parse_ranksvm(const ConfigNode& run, const RunContext& context) {
  return std::make_unique<RankSvmJob>(run, context);
}

std::vector<FieldRule> ranksvm_columns() {
  std::vector<FieldRule> rules = rules_of(ranksvm_fields());
  for (const FieldRule& rule : metric_columns()) rules.push_back(rule);
  return rules;
}

}  // namespace kollective::driver
