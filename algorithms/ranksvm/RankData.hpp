#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_DATA_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_RANK_DATA_HPP

/// \file RankData.hpp
/// Learning-to-rank data on the host: documents grouped by query with graded labels and dense
/// features; the SVMlight/LETOR reader, a seeded synthetic generator, feature scaling, the
/// LIBLINEAR-ranksvm model file, and evaluation (pairwise accuracy, NDCG).

#include <cstdint>
#include <string>
#include <vector>

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
  std::int64_t queries() const { return static_cast<std::int64_t>(query_ids.size()); }
};

/// Relevance labels are integer grades 0..max_label: NDCG's gain 2^label - 1 stays exact, and
/// this is LightGBM's default label range (its label_gain has 31 entries).
constexpr int max_label = 30;
/// The largest feature index a file may use.
constexpr std::int64_t max_feature_index = 100000000;

/// Reads `label qid:Q index:value ... # comment` lines (SVMlight/LETOR). Numbers are decimal
/// (no hex, inf or nan): labels integers 0..max_label, qids 0..2^63-1, indices 1..
/// max_feature_index and strictly increasing, values finite. Either every line has a qid or
/// none (then all documents form one query). Documents are grouped by qid in increasing order,
/// keeping file order inside a query; a query whose lines are split across the file is grouped
/// too (as SVMrank and LIBLINEAR do), with one warning line on stderr naming the first place it
/// resumes. `features` > 0 fixes the number of features (larger indices are an error); 0 takes
/// the largest index. Errors name the file and line.
RankData read_letor(const std::string& path, int features = 0);
void write_letor(const RankData& data, const std::string& path);

/// Synthetic LETOR-like data, seeded: `shape` "mq2007" (labels 0-2) or "mslr" (labels 0-4).
/// Query sizes are heavy-tailed (log-normal) and sum to `docs` exactly; about 1% of queries have
/// one document and a few exceed 2,000; features are correlated through 8 latent factors and
/// quantized to 1/16 of their scale (ties in w'x), mslr features with scales from 0.1 to 100;
/// labels grade a hidden linear score plus noise within each query; about 3% of queries have
/// all labels equal. The hidden score depends only on shape and feature count: different seeds give
/// training and test sets of the same task.
RankData synthetic_letor(const std::string& shape, std::int64_t queries, std::int64_t docs, int features,
                         std::uint64_t seed);

/// Per-feature [min, max] of a training set, and the scaling of any set to [0, 1] with it
/// (constant features map to 0; test values outside the range are not clipped).
struct FeatureRange {
  std::vector<double> low, high;
};
FeatureRange feature_range(const RankData& data);
void scale_features(RankData& data, const FeatureRange& range);

/// Preference pairs: pairs of documents of one query with different labels.
std::int64_t preference_pairs(const RankData& data);

/// LIBLINEAR-ranksvm's model file: "solver_type L2R_L2LOSS_RANKSVM", "nr_feature N", "bias -1",
/// "w", then one weight per line.
void write_model(const std::vector<double>& w, const std::string& path);
std::vector<double> read_model(const std::string& path);

/// Scores w'x of every document.
std::vector<double> predict(const RankData& data, const std::vector<double>& w);
/// Writes one score per line in the input file's line order (evaluation tools such as LETOR's
/// Eval-Score-4.0.pl pair the n-th score with the n-th document line).
void write_scores(const RankData& data, const std::vector<double>& scores, const std::string& path);

/// Fraction of preference pairs ordered correctly; as in LIBLINEAR-ranksvm, a tie in the scores
/// counts as correct. Queries without pairs do not count; data without any pair is an error
/// (the accuracy is undefined: callers check preference_pairs first).
double pairwise_accuracy(const RankData& data, const std::vector<double>& scores);

/// NDCG conventions; both rank documents by decreasing score, ties in file order, and use the
/// gain 2^label - 1.
/// - letor4: LETOR 4.0's Eval-Score-4.0.pl: discount 1 at positions 1 and 2, 1/log2(j) after;
///   NDCG@k of a query with fewer than k documents is 0; a query whose labels are all 0 scores 0.
///   (The script's gain table stops at label 2 and gives higher labels gain 0; here they keep
///   2^label - 1, the table of LETOR's script for the MSLR data sets.)
/// - modern: LightGBM's: discount 1/log2(j + 1); NDCG@k over min(k, n) positions; a query whose
///   labels are all 0 scores 1.
enum class NdcgConvention { letor4, modern };
NdcgConvention parse_ndcg_convention(const std::string& name);

/// NDCG@k of each query.
std::vector<double> ndcg_at(const RankData& data, const std::vector<double>& scores, int k, NdcgConvention convention);
/// LETOR's mean NDCG of each query: the average of NDCG@k over k = 1..size of the query.
std::vector<double> mean_ndcg(const RankData& data, const std::vector<double>& scores, NdcgConvention convention);

}  // namespace kollective::ranksvm

#endif
