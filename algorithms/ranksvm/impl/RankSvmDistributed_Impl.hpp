#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_DISTRIBUTED_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_DISTRIBUTED_IMPL_HPP

/// \file RankSvmDistributed_Impl.hpp
/// Training shared by the ranks (the scheme of distributed TRON in MPI-LIBLINEAR): each rank
/// holds whole queries; f, the gradient and every Hessian product are sums over queries, so each
/// rank computes its queries' part and one allreduce of a feature-length vector joins them. One
/// rank adds the regularizer. The sums are added in rank order on every rank, so every rank
/// takes the same TRON steps. Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::ranksvm::Impl {

/// The queries [first, end) of `data` that one rank trains on: contiguous runs in data's order,
/// balanced by load (preference pairs plus documents). A query goes to the rank whose share of
/// the total load holds its middle; no rank is left without one where there are enough queries.
/// Contiguous, a share's documents are one block of X, which the training reads in place.
struct QueryRange {
  std::int64_t first = 0, end = 0;
};
inline QueryRange share_queries(const RankData& data, int rank, int ranks) {
  const std::int64_t queries = data.queries();
  std::vector<std::int64_t> load(queries);
  std::int64_t total = 0;
  for (std::int64_t q = 0; q < queries; ++q) {
    load[q] = query_pairs(data, q) + data.query_begin[q + 1] - data.query_begin[q];
    total += load[q];
  }
  std::vector<std::int64_t> first(ranks + 1, queries);
  std::int64_t before = 0;
  for (std::int64_t q = 0, r = 0; q < queries; before += load[q++]) {
    const std::int64_t owner = (2 * before + load[q]) * ranks / (2 * total);  // total >= queries > 0
    while (r <= owner) first[r++] = q;
  }
  first[0] = 0;
  for (int r = 1; r < ranks && queries >= ranks; ++r)
    first[r] = std::clamp(first[r], first[r - 1] + 1, queries - (ranks - r));
  return {first[rank], first[rank + 1]};
}

/// The queries `range` of `data`, copied; without X when `with_x` is false (the training reads
/// the share's block of data.x in place, from its first document's row).
inline RankData rank_share(const RankData& data, QueryRange range, bool with_x = true) {
  const std::int64_t from = data.query_begin[range.first], end = data.query_begin[range.end];
  RankData share;
  share.features = data.features;
  share.docs = end - from;
  share.query_ids.assign(data.query_ids.begin() + range.first, data.query_ids.begin() + range.end);
  for (std::int64_t q = range.first; q <= range.end; ++q) share.query_begin.push_back(data.query_begin[q] - from);
  share.labels.assign(data.labels.begin() + from, data.labels.begin() + end);
  if (with_x) share.x.assign(data.x.begin() + from * data.features, data.x.begin() + end * data.features);
  if (!data.file_index.empty()) share.file_index.assign(data.file_index.begin() + from, data.file_index.begin() + end);
  return share;
}

/// This rank's share of `data` (share_queries), copied.
inline RankData rank_share(const RankData& data, int rank, int ranks) {
  return rank_share(data, share_queries(data, rank, ranks));
}

/// Fails on every rank alike unless every rank gets a query.
inline void require_query_per_rank(const RankData& data, const comm::Communicator& communicator) {
  communicator.on_every_rank([&] {
    if (const auto problem = shared_training_problem(data.queries(), communicator.size())) fail(*problem);
    return 0;
  });
}

}  // namespace kollective::ranksvm::Impl

#endif
