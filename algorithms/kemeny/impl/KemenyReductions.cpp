#include "kollective/algorithms/kemeny/impl/KemenyReductions.hpp"

#include <algorithm>
#include <utility>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"

namespace kollective::kemeny {

namespace {

/// x's margin over y, m(x, y) = o[x][y] - o[y][x] (doubled counts)
std::int64_t margin(const Counts& o, int x, int y) { return static_cast<std::int64_t>(o.at(x, y)) - o.at(y, x); }

/// At least 3/4 of the voters put x before y (o[x][y] >= 3/4 of o[x][y] + o[y][x], and some voter
/// counted).
bool three_quarters(const Counts& o, int x, int y) {
  return o.at(x, y) > 0 && o.at(x, y) >= 3 * static_cast<std::uint64_t>(o.at(y, x));
}

/// The 3/4-majority rule (KemenyReductions.hpp): every pair of a non-dirty alternative, as its
/// majority orders it, where the exchange rule did not fix it already.
void fix_by_three_quarters(const Counts& o, PairReduction& reduction) {
  const int n = o.alternatives;
  for (int x = 0; x < n; ++x) {
    bool non_dirty = true;
    for (int y = 0; y < n && non_dirty; ++y) {
      non_dirty = y == x || three_quarters(o, x, y) || three_quarters(o, y, x);
    }
    if (!non_dirty) continue;
    for (int y = 0; y < n; ++y) {
      if (y == x || reduction.fixed(x, y) || reduction.fixed(y, x)) continue;
      const auto [first, second] = three_quarters(o, x, y) ? std::pair{x, y} : std::pair{y, x};
      reduction.before[static_cast<std::size_t>(first) * n + second] = static_cast<signed char>(Rule::majority);
      ++reduction.by_majority;
    }
  }
}

/// Max flow from `source` to `sink` over the dense n x n `capacity` (Dinic's blocking flows),
/// stopped once it reaches `limit`; `capacity` is left residual.
class DenseMaxFlow {
 public:
  DenseMaxFlow(std::vector<std::int64_t>& capacity, int n) : capacity_(capacity), n_(n), level_(n), next_(n) {}

  std::int64_t run(int source, int sink, std::int64_t limit) {
    std::int64_t flow = 0;
    while (flow < limit && levels_reach(source, sink)) {
      std::fill(next_.begin(), next_.end(), 0);
      while (flow < limit) {
        const std::int64_t pushed = push(source, sink, limit - flow);
        if (pushed == 0) break;
        flow += pushed;
      }
    }
    return flow;
  }

  /// After run() below its limit: the alternatives reachable from `source` (the minimum cut's side).
  std::vector<int> reachable(int source) {
    levels_reach(source, -1);
    std::vector<int> side;
    for (int v = 0; v < n_; ++v) {
      if (level_[v] >= 0) side.push_back(v);
    }
    return side;
  }

 private:
  std::int64_t& at(int u, int v) { return capacity_[static_cast<std::size_t>(u) * n_ + v]; }

  bool levels_reach(int source, int sink) {  // breadth-first levels over arcs with room left
    std::fill(level_.begin(), level_.end(), -1);
    std::vector<int> queue{source};
    level_[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int u = queue[head];
      for (int v = 0; v < n_; ++v) {
        if (level_[v] < 0 && at(u, v) > 0) level_[v] = level_[u] + 1, queue.push_back(v);
      }
    }
    return sink >= 0 && level_[sink] >= 0;
  }

  std::int64_t push(int u, int sink, std::int64_t most) {  // one path, depth first along the levels
    if (u == sink) return most;
    for (int& v = next_[u]; v < n_; ++v) {
      if (level_[v] != level_[u] + 1 || at(u, v) <= 0) continue;
      const std::int64_t pushed = push(v, sink, std::min(most, at(u, v)));
      if (pushed > 0) {
        at(u, v) -= pushed;
        at(v, u) += pushed;
        return pushed;
      }
    }
    return 0;
  }

  std::vector<std::int64_t>& capacity_;
  int n_;
  std::vector<int> level_, next_;
};

/// A flow from a to b along the paths a -> t -> b (arc-disjoint, so it is a flow), stopped at
/// `limit`: where it reaches the margin, no cut is below it and the max flow need not run.
std::int64_t two_step_flow(const PairReduction& reduction, const std::vector<std::int64_t>& cost, int a, int b,
                           std::int64_t limit) {
  std::int64_t flow = cost[reduction.index(a, b)];
  for (int t = 0; t < reduction.alternatives && flow < limit; ++t) {
    if (t != a && t != b) flow += std::min(cost[reduction.index(a, t)], cost[reduction.index(t, b)]);
  }
  return flow;
}

/// The grouping rule (KemenyReductions.hpp): for each pair a, b with m(a, b) > 0 not fixed yet,
/// the max flow from a to b; where it stays below m(a, b), its cut S fixes every pair across it
/// whose margin exceeds the flow.
void fix_by_grouping(const Counts& o, PairReduction& reduction) {
  const int n = o.alternatives;
  if (n > grouping_max_alternatives) return;
  std::vector<std::int64_t> cost(static_cast<std::size_t>(n) * n, 0);  // arc s -> t: what t before s may cost
  for (int s = 0; s < n; ++s) {
    for (int t = 0; t < n; ++t) cost[reduction.index(s, t)] = s == t ? 0 : std::max<std::int64_t>(0, margin(o, t, s));
  }
  reduction.side_of.assign(static_cast<std::size_t>(n) * n, -1);
  std::vector<std::int64_t> residual;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b || margin(o, a, b) <= 0 || reduction.fixed(a, b)) continue;
      if (two_step_flow(reduction, cost, a, b, margin(o, a, b)) >= margin(o, a, b))
        continue;  // no cut below the margin
      residual = cost;
      DenseMaxFlow flow(residual, n);
      const std::int64_t cut = flow.run(a, b, margin(o, a, b));
      if (cut >= margin(o, a, b)) continue;
      std::vector<int> side = flow.reachable(a);
      std::vector<char> in_side(n, 0);
      for (const int s : side) in_side[s] = 1;
      for (const int s : side) {
        for (int t = 0; t < n; ++t) {
          if (in_side[t] || reduction.fixed(s, t) || margin(o, s, t) <= cut) continue;
          reduction.before[reduction.index(s, t)] = static_cast<signed char>(Rule::grouping);
          reduction.side_of[reduction.index(s, t)] = static_cast<int>(reduction.sides.size());
          ++reduction.by_grouping;
        }
      }
      reduction.sides.push_back(std::move(side));
    }
  }
}

}  // namespace

const char* to_string(Rule rule) {
  switch (rule) {
    case Rule::exchange:
      return "exchange";
    case Rule::majority:
      return "majority";
    case Rule::grouping:
      return "grouping";
    case Rule::closure:
      break;
  }
  return "closure";
}

PairReduction fixed_pairs(const Counts& o) {
  const int n = o.alternatives;
  PairReduction reduction;
  reduction.alternatives = n;
  reduction.before.assign(static_cast<std::size_t>(n) * n, 0);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b || margin(o, a, b) <= 0) continue;
      std::int64_t worst = 0;  // the most the alternatives between b and a can gain from the swap's loss
      for (int c = 0; c < n && worst < margin(o, a, b); ++c) {
        if (c != a && c != b) worst += std::max<std::int64_t>(0, margin(o, b, c) - margin(o, a, c));
      }
      if (worst < margin(o, a, b)) {
        reduction.before[static_cast<std::size_t>(a) * n + b] = static_cast<signed char>(Rule::exchange);
        ++reduction.by_exchange;
      }
    }
  }
  if (o.strict_complete) fix_by_three_quarters(o, reduction);
  fix_by_grouping(o, reduction);
  // Transitive closure (Warshall): a before c before b in every optimum puts a before b.
  for (int c = 0; c < n; ++c) {
    for (int a = 0; a < n; ++a) {
      if (!reduction.fixed(a, c)) continue;
      for (int b = 0; b < n; ++b) {
        signed char& ab = reduction.before[static_cast<std::size_t>(a) * n + b];
        if (!ab && reduction.fixed(c, b)) ab = static_cast<signed char>(Rule::closure), ++reduction.by_closure;
      }
    }
  }
  return reduction;
}

std::vector<signed char> pair_columns(const PairReduction& reduction) {
  const int n = reduction.alternatives;
  std::vector<signed char> columns(static_cast<std::size_t>(n) * (n - 1) / 2, -1);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (reduction.fixed(i, j) || reduction.fixed(j, i)) columns[pair_column(i, j, n)] = reduction.fixed(i, j) ? 1 : 0;
    }
  }
  return columns;
}

}  // namespace kollective::kemeny
