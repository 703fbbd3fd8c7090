#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <vector>

#include "kollective/core/Error.hpp"

namespace kollective::ranksvm {

FeatureRange feature_range(const RankData& data) {
  FeatureRange range;
  range.low.assign(data.features, INFINITY);
  range.high.assign(data.features, -INFINITY);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    for (int f = 0; f < data.features; ++f) {
      range.low[f] = std::min(range.low[f], data.x[d * data.features + f]);
      range.high[f] = std::max(range.high[f], data.x[d * data.features + f]);
    }
  }
  return range;
}

void scale_features(RankData& data, const FeatureRange& range) {
  if (static_cast<int>(range.low.size()) != data.features)
    fail("feature scaling: the range has ", range.low.size(), " features, the data ", data.features);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    for (int f = 0; f < data.features; ++f) {
      const double width = range.high[f] - range.low[f];
      double& value = data.x[d * data.features + f];
      value = width > 0 ? (value - range.low[f]) / width : 0.0;
    }
  }
}

std::int64_t query_pairs(const RankData& data, std::int64_t q) {
  // Sorted, the documents of each label are one run.
  std::vector<double> labels(data.labels.begin() + data.query_begin[q], data.labels.begin() + data.query_begin[q + 1]);
  std::sort(labels.begin(), labels.end());
  const auto n = static_cast<std::int64_t>(labels.size());
  std::int64_t same = 0;
  for (std::int64_t begin = 0, end = 0; begin < n; begin = end) {
    while (end < n && labels[end] == labels[begin]) ++end;
    same += (end - begin) * (end - begin);
  }
  return (n * n - same) / 2;
}

std::int64_t preference_pairs(const RankData& data) {
  std::int64_t pairs = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) pairs += query_pairs(data, q);
  return pairs;
}

namespace {

/// Fails unless every value of X is finite and, for float features, fits in float.
void check_features(const double* x, int features, std::int64_t docs, bool single_precision) {
  const std::size_t count = static_cast<std::size_t>(docs) * features;
  const double limit = single_precision ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
  bool fit = true;
  for (std::size_t i = 0; i < count; ++i) fit &= std::fabs(x[i]) <= limit;  // false for NaN; vectorizes
  if (fit) return;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::fabs(x[i]) <= limit) continue;
    fail("X[", i / features, ", ", i % features, "] = ", x[i],
         std::isfinite(x[i]) ? " does not fit in float (float features)" : " is not finite");
  }
}

}  // namespace

RankData group_by_query(const double* x, int features, const double* labels, const std::int64_t* qids,
                        std::int64_t docs, bool single_precision) {
  if (docs <= 0) fail("no documents");
  for (std::int64_t d = 0; d < docs; ++d) {
    if (!(labels[d] >= 0 && labels[d] <= max_label && labels[d] == std::floor(labels[d]))) {
      fail("y[", d, "] = ", labels[d], " is not an integer grade in 0..", max_label);
    }
    if (qids[d] < 0) fail("qid[", d, "] = ", qids[d], " is negative");
  }
  if (x) check_features(x, features, docs, single_precision);
  RankData data;
  data.docs = docs;
  data.features = features;
  data.file_index.resize(docs);
  std::iota(data.file_index.begin(), data.file_index.end(), 0);
  const bool grouped = std::is_sorted(qids, qids + docs);  // LETOR data usually comes grouped already
  if (!grouped) {
    std::stable_sort(data.file_index.begin(), data.file_index.end(),
                     [&](std::int64_t a, std::int64_t b) { return qids[a] < qids[b]; });
  }
  data.labels.resize(docs);
  if (x && !grouped) data.x.resize(static_cast<std::size_t>(docs) * features);
  for (std::int64_t d = 0; d < docs; ++d) {
    const std::int64_t source = data.file_index[d];
    data.labels[d] = labels[source];
    if (x && !grouped) std::copy_n(x + source * features, features, data.x.begin() + d * features);
    if (d == 0 || qids[source] != qids[data.file_index[d - 1]]) {
      data.query_begin.push_back(d);
      data.query_ids.push_back(qids[source]);
    }
  }
  data.query_begin.push_back(docs);
  return data;
}

const OptionFields<Options>& option_fields() {
  static const OptionFields<Options> fields = {
      number_option("C", &Options::C, positive, "the loss's weight"),
      number_option("eps", &Options::eps, {0, 1, true, true}, "stop when |g| <= eps |g0|"),
      integer_option("max_iterations", &Options::max_iterations, 1, max_tron_iterations, "TRON iterations at most")
          .formerly("max_iter"),
      choice_option("precision", &Options::precision, precision_names, "X's precision on the device")
          .formerly("feature_precision"),
  };
  return fields;
}

const ResultFields<Result>& result_fields() {
  using F = FieldKind;
  using R = Result;
  auto measured = [](const R& r) { return r.read_x_s > 0; };
  static const ResultFields<R> fields = {
      field<R>("iterations", F::counter, "count", "TRON iterations", [](const R& r) { return r.iterations; }),
      field<R>("cg_steps", F::counter, "count", "conjugate-gradient steps (Hessian products)",
               [](const R& r) { return r.cg_steps; }),
      field<R>("objective", F::answer, "", "f(w) = 1/2 w'w + C * the pairs' squared hinge losses",
               [](const R& r) { return r.objective; })
          .shown(),
      field<R>(
          "gradient_ratio", F::answer, "", "|g| / |g0| at the end (eps stops below it; 0 where g0 = 0)",
          [](const R& r) { return r.initial_gradient_norm > 0 ? r.gradient_norm / r.initial_gradient_norm : 0.0; }),
      field<R>("stop", F::outcome, "", "why TRON stopped", [](const R& r) { return r.stop; }).shown(),
      field<R>("setup_s", F::timing, "s", "moving the data to the device (X transposed there), before TRON",
               [](const R& r) { return r.setup_s; }),
      field<R>("fun_s", F::timing, "s", "per function evaluation",
               [](const R& r) { return r.fun_total_s / r.function_evaluations; })
          .formerly("seconds_per_fun"),
      field<R>("grad_s", F::timing, "s", "per gradient",
               [](const R& r) { return r.iterations ? r.grad_total_s / (r.iterations + 1) : r.grad_total_s; })
          .formerly("seconds_per_grad"),
      field<R>("hv_s", F::timing, "s", "per Hessian product",
               [](const R& r) { return r.cg_steps ? r.hv_total_s / r.cg_steps : 0.0; })
          .formerly("seconds_per_hv"),
      field<R>("hv_x_s", F::timing, "s", "of a Hessian product, X.s (sampled)", [](const R& r) { return r.hv_x_s; }),
      field<R>("hv_sums_s", F::timing, "s", "of a Hessian product, the per-query sums (sampled)",
               [](const R& r) { return r.hv_sums_s; }),
      field<R>("hv_xt_s", F::timing, "s", "of a Hessian product, X'u (sampled)", [](const R& r) { return r.hv_xt_s; }),
      field_where<R>("read_x_twice_s", F::timing, "s",
                     "two passes over X at the device's copy bandwidth (a floor of Hv; measure_bandwidth)", measured,
                     [](const R& r) { return 2 * r.read_x_s; }),
      field_where<R>("copy_bytes_per_s", F::timing, "B/s", "the device's copy bandwidth over X (measure_bandwidth)",
                     measured, [](const R& r) { return r.x_bytes / r.read_x_s; }),
      field<R>("hv_x_bytes_per_s", F::timing, "B/s", "X's bytes read twice per Hessian product, a second",
               [](const R& r) { return r.cg_steps ? 2 * r.x_bytes * r.cg_steps / r.hv_total_s : 0.0; }),
  };
  return fields;
}

std::optional<OptionProblem> check(const Options& options) {
  if (auto problem = check_fields(options, option_fields())) return problem;
  const std::int64_t span = options.split_span;
  if (span != 0 && (span < 2 || (span & (span - 1)) != 0))
    return OptionProblem{
        "split_span", "must be 0 (the backend's default) or a power of two of at least 2, got " + std::to_string(span)};
  return std::nullopt;
}

std::optional<std::string> shared_training_problem(std::int64_t queries, int ranks) {
  if (queries >= ranks) return std::nullopt;
  return "RankSVM training shared by " + std::to_string(ranks) + " ranks needs at least one query per rank (" +
         std::to_string(queries) + (queries == 1 ? " query" : " queries") + ")";
}

void check_data(const RankData& data, const double* rows) {
  const std::int64_t docs = data.docs;
  if (docs < 1 || data.features < 1)
    fail("ranksvm::train: ", docs, " documents of ", data.features, " features (at least one of each)");
  if (static_cast<std::int64_t>(data.labels.size()) != docs)
    fail("ranksvm::train: ", data.labels.size(), " labels for ", docs, " documents");
  for (std::int64_t d = 0; d < docs; ++d) {
    const double label = data.labels[d];
    if (!(label >= 0 && label <= max_label) || label != std::floor(label))
      fail("ranksvm::train: labels[", d, "] = ", label, " is not an integer grade 0..", max_label);
  }
  const auto& begin = data.query_begin;
  if (begin.size() != data.query_ids.size() + 1 || begin.front() != 0 || begin.back() != docs)
    fail("ranksvm::train: query_begin must hold the ", data.query_ids.size(), " queries' offsets and ", docs,
         " (from 0 to the documents, queries + 1 entries); it holds ", begin.size(), " entries");
  for (std::size_t q = 1; q < begin.size(); ++q) {
    if (begin[q] < begin[q - 1]) fail("ranksvm::train: query_begin[", q, "] = ", begin[q], " is below the one before");
  }
  if (!rows && data.x.size() != static_cast<std::size_t>(docs) * data.features)
    fail("ranksvm::train: x holds ", data.x.size(), " values for ", docs, " documents x ", data.features, " features");
}

void check_result(const RankData& data, const Result& result) {
  auto wrong = [](const auto&... what) { fail("internal error: the RankSVM result ", what...); };
  if (static_cast<int>(result.w.size()) != data.features)
    wrong("has ", result.w.size(), " weights for ", data.features, " features");
  auto finite = [](double x) { return std::isfinite(x) && x >= 0; };
  if (!std::all_of(result.w.begin(), result.w.end(), [](double w) { return std::isfinite(w); }))
    wrong("has a weight that is not finite");
  if (!finite(result.objective) || !finite(result.gradient_norm) || !finite(result.initial_gradient_norm)) {
    wrong("has objective ", result.objective, " and gradient norms ", result.gradient_norm, ", ",
          result.initial_gradient_norm);
  }
  if (!result.converged && result.stop.empty()) wrong("did not converge and says not why");
}

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("ranksvm: ", problem->option, " ", problem->problem);
}

}  // namespace kollective::ranksvm
