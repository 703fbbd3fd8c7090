#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_METRICS_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_METRICS_HPP

/// \file RankSvmMetrics.hpp
/// Scores of a model and ranking quality: pairwise accuracy and NDCG under the LETOR 4.0 and
/// modern (LightGBM) conventions.
#include <string>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"

namespace kollective::ranksvm {

/// Scores w'x of every document.
std::vector<double> predict(const RankData& data, const std::vector<double>& w);
/// Fraction of preference pairs ordered correctly; as in LIBLINEAR-ranksvm, a tie in the scores
/// counts as correct. Queries without pairs do not count; data without any pair is an error
/// (the accuracy is undefined: callers check preference_pairs first).
double pairwise_accuracy(const RankData& data, const std::vector<double>& scores);
/// The preference pairs ordered correctly (ties in the scores count), the numerator of the above.
std::int64_t pairwise_correct(const RankData& data, const std::vector<double>& scores);

/// NDCG conventions; both rank documents by decreasing score, ties in file order, and use the
/// gain 2^label - 1.
/// - letor4: LETOR 4.0's Eval-Score-4.0.pl: discount 1 at positions 1 and 2, 1/log2(j) after;
///   NDCG@k of a query with fewer than k documents is 0; a query whose labels are all 0 scores 0.
///   (The script's gain table stops at label 2 and gives higher labels gain 0; here they keep
///   2^label - 1, the table of LETOR's script for the MSLR data sets.)
/// - modern: LightGBM's: discount 1/log2(j + 1); NDCG@k over min(k, n) positions; a query whose
///   labels are all 0 scores 1.
enum class NdcgConvention { letor4, modern };
inline constexpr EnumNames<NdcgConvention, 2> ndcg_convention_names{
    {{NdcgConvention::letor4, "letor4"}, {NdcgConvention::modern, "modern"}}};
inline const char* to_string(NdcgConvention convention) { return name_of(ndcg_convention_names, convention); }

/// How a run scores its model, beside the training's options: declared as they are, read by the
/// driver's `options:` and Python's scoring functions.
struct Evaluation {
  bool scale = false;  ///< scale each feature to [0, 1] by the training set's range, before training
  NdcgConvention ndcg = NdcgConvention::letor4;
  std::vector<int> ndcg_k = {1, 3, 5, 10};  ///< NDCG@k positions reported
};
const OptionFields<Evaluation>& evaluation_fields();

/// NDCG@k of each query.
std::vector<double> ndcg_at(const RankData& data, const std::vector<double>& scores, int k, NdcgConvention convention);
/// LETOR's mean NDCG of each query: the average of NDCG@k over k = 1..size of the query.
std::vector<double> mean_ndcg(const RankData& data, const std::vector<double>& scores, NdcgConvention convention);

}  // namespace kollective::ranksvm

#endif
