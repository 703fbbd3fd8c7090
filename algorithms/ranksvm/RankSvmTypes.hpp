#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_TYPES_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_TYPES_HPP

/// \file RankSvmTypes.hpp
/// Learning-to-rank data on the host (documents grouped by query, graded labels, dense
/// features) with its scaling, and RankSVM's training options and result.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/OptionFields.hpp"
#include "kollective/core/Progress.hpp"
#include "kollective/core/ResultFields.hpp"
#include "kollective/core/comm/Communicator.hpp"

namespace kollective::ranksvm {

struct RankData {
  std::int64_t docs = 0;
  int features = 0;
  std::vector<double> labels;             ///< per document
  std::vector<double> x;                  ///< docs x features, row-major (absent features are 0)
  std::vector<std::int64_t> query_begin;  ///< queries + 1 offsets: query q holds [begin[q], begin[q+1])
  std::vector<std::int64_t> query_ids;    ///< the qid of each query (0 when the file has none)
  /// Per document, its index among the documents of the input file (documents are regrouped by
  /// qid); empty when the data did not come from a file (then it is the order of `labels`).
  std::vector<std::int64_t> file_index;
  /// What the reader noticed without failing (a query resumed after others, a file read whole):
  /// for the caller to show.
  std::vector<std::string> warnings;
  std::int64_t queries() const { return static_cast<std::int64_t>(query_ids.size()); }
};

/// Relevance labels are integer grades 0..max_label: NDCG's gain 2^label - 1 stays exact, and
/// this is LightGBM's default label range (its label_gain has 31 entries).
constexpr int max_label = 30;
/// The largest feature index a file may use.
constexpr std::int64_t max_feature_index = 100000000;

/// Per-feature [min, max] of a training set, and the scaling of any set to [0, 1] with it
/// (constant features map to 0; test values outside the range are not clipped).
struct FeatureRange {
  std::vector<double> low, high;
};
FeatureRange feature_range(const RankData& data);
void scale_features(RankData& data, const FeatureRange& range);

/// Preference pairs of query q: pairs of its documents with different labels.
std::int64_t query_pairs(const RankData& data, std::int64_t q);
/// Preference pairs of every query.
std::int64_t preference_pairs(const RankData& data);

struct Options {
  double C = 1;
  double eps = 1e-3;  ///< LIBLINEAR's default for this solver; the seed used 1e-5
  int max_iterations = 1000;
  /// X's precision on the device (float32: half the traffic, values rounded to float)
  Precision precision = Precision::float64;
  std::int64_t split_span =
      0;  ///< sorted positions per team of a large query (a power of two; 0: the backend's default)
  /// The ranks that share the training (comm::from_mpi; a collective over them): each holds
  /// whole queries, and f, the gradient and the Hessian products are summed over the ranks (in
  /// rank order, so every rank takes the same steps). The default, this process alone.
  comm::Communicator communicator;
  /// Shared: the data passed is this rank's share already (read_letor_share), not the whole set.
  bool data_is_share = false;
  /// Time copies of up to 2 x 512 MiB on the device first, for read_x_s (the benchmark
  /// tables' floor of X.v); off: read_x_s stays 0.
  bool measure_bandwidth = false;
  Reporter reporter;  ///< log: one line per TRON iteration (none: silent)
};

/// A training set from documents as a caller holds them, per document: X's row (docs x features,
/// row-major; null: no features), its label (an integer grade 0..max_label) and its query id (not
/// negative). Documents are grouped by qid, stably, as read_letor groups them: when they come
/// grouped, data.x stays empty and X is to be read in place (train's `rows`); else data.x holds the
/// regrouped rows and data.file_index the caller's order. Fails naming the first bad entry; X's
/// values must be finite and, for `single_precision` (float features), fit in float.
RankData group_by_query(const double* x, int features, const double* labels, const std::int64_t* qids,
                        std::int64_t docs, bool single_precision);

/// Fails, naming what disagrees, unless `data` is whole: documents and features, a label per
/// document (an integer grade 0..max_label), queries' offsets from 0 to docs in order, and X's
/// docs x features values where train reads them from data.x (`rows` null).
void check_data(const RankData& data, const double* rows);

/// Why `queries` queries cannot be trained on shared by `ranks` ranks (each holds whole queries,
/// at least one), or none.
std::optional<std::string> shared_training_problem(std::int64_t queries, int ranks);

/// The most TRON iterations a training may take (Options::max_iterations).
constexpr int max_tron_iterations = 1000000;

/// The options a config or Python may set, declared once (core/OptionFields.hpp): the YAML
/// reader, the config reference, Python's keyword arguments and check() read them.
const OptionFields<Options>& option_fields();

/// The one check of options, for the driver, Python and train(): every declared field in its
/// range. check: the first problem, if any; validate: fails with it.
std::optional<OptionProblem> check(const Options& options);
void validate(const Options& options);

struct Result {
  std::vector<double> w;
  double objective = 0, gradient_norm = 0, initial_gradient_norm = 0;
  int iterations = 0, cg_steps = 0, function_evaluations = 0;
  bool converged = false;  ///< the eps rule was met (else the reason is in `stop`)
  std::string stop;
  double fun_total_s = 0, grad_total_s = 0, hv_total_s = 0;  ///< fenced totals per operation
  double hv_x_s = 0, hv_sums_s = 0,
         hv_xt_s = 0;     ///< Hv's parts, X.s, the per-query sums, X'u: means per Hv (sampled)
  double read_x_s = 0;    ///< one pass over X at the device's copy bandwidth (measure_bandwidth; else 0)
  double x_bytes = 0;     ///< X's size as stored on the device (float or double)
  double setup_s = 0;     ///< moving the data to the device (X transposed there), before TRON
  int ranks = 1;          ///< ranks that shared the training
  double exchange_s = 0;  ///< of the fenced totals, spent summing over the ranks
};

/// What a training reports, declared once: the driver's table columns and console summary, and
/// Python's result objects, are made from it (core/ResultFields.hpp). Per-operation seconds are
/// means: per TRON iteration's gradient, per function evaluation, per Hessian product.
const ResultFields<Result>& result_fields();

/// Fails unless a training's result is consistent with its data: a finite weight per feature, a
/// finite non-negative objective and gradient norms, and a reason wherever it did not converge.
/// train() checks each result with it; an internal error when not.
void check_result(const RankData& data, const Result& result);

}  // namespace kollective::ranksvm

#endif
