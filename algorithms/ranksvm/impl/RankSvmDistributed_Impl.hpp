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
#include <map>
#include <numeric>
#include <vector>

#include "algorithms/ranksvm/RankSvmTypes.hpp"
#include "core/comm/Communicator.hpp"
#include "core/Error.hpp"

namespace kollective::ranksvm::Impl {

/// The queries of `data` that rank `rank` of `ranks` trains on, in their order in `data`. Queries
/// go longest first (by preference pairs plus documents) to the rank with the least so far.
inline RankData rank_share(const RankData& data, int rank, int ranks) {
  const std::int64_t queries = data.queries();
  std::vector<std::int64_t> load(queries);
  for (std::int64_t q = 0; q < queries; ++q) {
    std::map<double, std::int64_t> count;
    const std::int64_t n = data.query_begin[q + 1] - data.query_begin[q];
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) ++count[data.labels[d]];
    std::int64_t same = 0;
    for (const auto& entry : count) same += entry.second * entry.second;
    load[q] = (n * n - same) / 2 + n;
  }
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
  RankData share;
  share.features = data.features;
  share.query_begin = {0};
  for (std::int64_t q = 0; q < queries; ++q) {
    if (!mine[q]) continue;
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) {
      share.labels.push_back(data.labels[d]);
      share.x.insert(share.x.end(), data.x.begin() + d * data.features, data.x.begin() + (d + 1) * data.features);
      if (!data.file_index.empty()) share.file_index.push_back(data.file_index[d]);
    }
    share.query_ids.push_back(data.query_ids[q]);
    share.query_begin.push_back(static_cast<std::int64_t>(share.labels.size()));
  }
  share.docs = static_cast<std::int64_t>(share.labels.size());
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
