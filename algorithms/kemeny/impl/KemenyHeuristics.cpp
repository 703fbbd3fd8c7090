#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Random.hpp"

namespace kollective::kemeny {

namespace {
Ranking sorted_by_score(int n, const std::function<std::int64_t(int)>& score) {
  Ranking ranking(n);
  std::iota(ranking.begin(), ranking.end(), 0);
  std::stable_sort(ranking.begin(), ranking.end(), [&](int a, int b) { return score(a) > score(b); });
  return ranking;
}
}  // namespace

Ranking borda(const Counts& o) {
  return sorted_by_score(o.alternatives, [&](int i) {
    std::int64_t sum = 0;
    for (int j = 0; j < o.alternatives; ++j) sum += o.at(i, j);
    return sum;
  });
}

Ranking copeland(const Counts& o) {
  const int n = o.alternatives;
  std::vector<std::int64_t> score(n, 0);
  for (int i = 0; i < n; ++i) {
    std::int64_t wins = 0, borda_sum = 0;
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      wins += o.at(i, j) > o.at(j, i) ? 2 : (o.at(i, j) == o.at(j, i) ? 1 : 0);
      borda_sum += o.at(i, j);
    }
    score[i] = wins * (std::int64_t{1} << 40) + borda_sum;  // wins first, Borda breaks ties
  }
  return sorted_by_score(n, [&](int i) { return score[i]; });
}

Ranking kwiksort(const Counts& o, std::uint64_t seed) {
  HostRng rng(seed);
  std::function<Ranking(const Ranking&)> sort = [&](const Ranking& items) -> Ranking {
    if (items.size() <= 1) return items;
    const int pivot = items[uniform_below(rng, items.size())];
    Ranking above, below;
    for (int a : items) {
      if (a == pivot) continue;
      (o.at(a, pivot) > o.at(pivot, a) ? above : below).push_back(a);
    }
    Ranking result = sort(above);
    result.push_back(pivot);
    const Ranking rest = sort(below);
    result.insert(result.end(), rest.begin(), rest.end());
    return result;
  };
  Ranking all(o.alternatives);
  std::iota(all.begin(), all.end(), 0);
  return sort(all);
}

Ranking local_search(const Counts& o, Ranking ranking) {
  const int n = static_cast<int>(ranking.size());
  bool improved = true;
  while (improved) {
    improved = false;
    for (int from = 0; from < n; ++from) {
      // Gain of moving ranking[from] to position `to`, accumulated one swap at a time.
      const int a = ranking[from];
      std::int64_t gain = 0, best_gain = 0;
      int best_to = from;
      for (int to = from - 1; to >= 0; --to) {  // move up past ranking[to]
        const int b = ranking[to];
        gain += static_cast<std::int64_t>(o.at(b, a)) -
                o.at(a, b);  // b above a costs o[a][b]; after, a above b costs o[b][a]
        if (-gain > best_gain) {
          best_gain = -gain;
          best_to = to;
        }
      }
      gain = 0;
      for (int to = from + 1; to < n; ++to) {  // move down past ranking[to]
        const int b = ranking[to];
        gain += static_cast<std::int64_t>(o.at(a, b)) - o.at(b, a);
        if (-gain > best_gain) {
          best_gain = -gain;
          best_to = to;
        }
      }
      if (best_gain > 0) {
        ranking.erase(ranking.begin() + from);
        ranking.insert(ranking.begin() + best_to, a);
        improved = true;
      }
    }
  }
  return ranking;
}

std::vector<std::vector<int>> condorcet_components(const Counts& o) {
  // Tarjan's algorithm; components come out in reverse topological order of the condensation.
  const int n = o.alternatives;
  std::vector<int> index(n, -1), low(n, 0), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::vector<int>> components;
  int counter = 0;
  std::function<void(int)> visit = [&](int v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    for (int w = 0; w < n; ++w) {
      if (w == v || o.at(v, w) < o.at(w, v)) continue;  // edge v -> w when o[v][w] >= o[w][v]
      if (index[w] < 0) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack[w]) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      std::vector<int> component;
      int w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        component.push_back(w);
      } while (w != v);
      std::sort(component.begin(), component.end());
      components.push_back(std::move(component));
    }
  };
  for (int v = 0; v < n; ++v) {
    if (index[v] < 0) visit(v);
  }
  std::reverse(components.begin(), components.end());  // sources (most preferred) first
  return components;
}

Counts restrict_to(const Counts& o, const std::vector<int>& alternatives) {
  Counts sub;
  sub.alternatives = static_cast<int>(alternatives.size());
  for (int a : alternatives) sub.names.push_back(o.names[a]);
  sub.doubled.resize(alternatives.size() * alternatives.size());
  sub.strict_complete = o.strict_complete;  // the ballots restricted to the component
  for (size_t i = 0; i < alternatives.size(); ++i) {
    for (size_t j = 0; j < alternatives.size(); ++j) {
      sub.doubled[i * alternatives.size() + j] = o.at(alternatives[i], alternatives[j]);
    }
  }
  return sub;
}

Ranking best_heuristic(const Counts& o, std::uint64_t seed) {
  Ranking best;
  std::uint64_t best_distance = ~std::uint64_t{0};
  std::vector<Ranking> starts = {borda(o), copeland(o)};
  for (std::uint64_t s = 0; s < 8; ++s) starts.push_back(kwiksort(o, seed + s));
  for (auto& start : starts) {
    Ranking improved = local_search(o, start);
    const std::uint64_t d = distance(o, improved);
    if (d < best_distance) {
      best_distance = d;
      best = std::move(improved);
    }
  }
  return best;
}

}  // namespace kollective::kemeny
