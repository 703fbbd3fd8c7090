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

#include "algorithms/ranksvm/RankSvmTypes.hpp"
#include "core/comm/Communicator.hpp"
#include "core/Error.hpp"

namespace kollective::ranksvm::Impl {

/// The queries of `data` that rank `rank` of `ranks` trains on, in their order in `data`. Queries
/// go longest first (by preference pairs plus documents) to the rank with the least so far.
inline std::vector<char> queries_of_rank(const RankData& data, int rank, int ranks) {
  const std::int64_t queries = data.queries();
  std::vector<std::int64_t> load(queries);
  for (std::int64_t q = 0; q < queries; ++q)
    load[q] = query_pairs(data, q) + data.query_begin[q + 1] - data.query_begin[q];
  std::vector<std::int64_t> order(queries);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return load[a] > load[b]; });
  std::vector<std::int64_t> total(ranks, 0);
  std::vector<char> mine(queries, 0);
  for (const std::int64_t q : order) {
    const auto least = static_cast<int>(std::min_element(total.begin(), total.end()) - total.begin());
    total[least] += load[q];
    mine[q] = least == rank;
  }
  return mine;
}

/// This rank's share of `data` (queries_of_rank), copied into one allocation per array.
inline RankData rank_share(const RankData& data, int rank, int ranks) {
  const std::vector<char> mine = queries_of_rank(data, rank, ranks);
  RankData share;
  share.features = data.features;
  share.query_begin = {0};
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    if (!mine[q]) continue;
    share.query_ids.push_back(data.query_ids[q]);
    share.query_begin.push_back(share.query_begin.back() + data.query_begin[q + 1] - data.query_begin[q]);
  }
  share.docs = share.query_begin.back();
  share.labels.resize(share.docs);
  share.x.resize(share.docs * data.features);
  if (!data.file_index.empty()) share.file_index.resize(share.docs);
  for (std::int64_t q = 0, to = 0; q < data.queries(); ++q) {
    if (!mine[q]) continue;
    const std::int64_t from = data.query_begin[q], end = data.query_begin[q + 1];
    std::copy(data.labels.begin() + from, data.labels.begin() + end, share.labels.begin() + to);
    std::copy(data.x.begin() + from * data.features, data.x.begin() + end * data.features,
              share.x.begin() + to * data.features);
    if (!data.file_index.empty())
      std::copy(data.file_index.begin() + from, data.file_index.begin() + end, share.file_index.begin() + to);
    to += end - from;
  }
  return share;
}

/// Fails on every rank alike unless every rank gets a query.
inline void require_query_per_rank(const RankData& data) {
  comm::on_every_rank([&] {
    if (data.queries() < comm::size()) {
      fail("RankSVM training shared by ", comm::size(), " ranks needs at least one query per rank (", data.queries(),
           " queries)");
    }
    return 0;
  });
}

}  // namespace kollective::ranksvm::Impl

#endif
