#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "algorithms/kemeny/Kemeny.hpp"
#include "core/Error.hpp"
#include "core/Random.hpp"

namespace kollective::kemeny {

std::uint64_t distance(const Counts& o, const Ranking& ranking) {
  std::uint64_t total = 0;
  for (size_t p = 0; p < ranking.size(); ++p) {
    for (size_t q = p + 1; q < ranking.size(); ++q) total += o.at(ranking[q], ranking[p]);
  }
  return total;
}

std::uint64_t lower_bound(const Counts& o) {
  std::uint64_t total = 0;
  for (int i = 0; i < o.alternatives; ++i) {
    for (int j = i + 1; j < o.alternatives; ++j) total += std::min(o.at(i, j), o.at(j, i));
  }
  return total;
}

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
        gain += static_cast<std::int64_t>(o.at(b, a)) - o.at(a, b);  // b above a costs o[a][b]; after, a above b costs o[b][a]
        if (-gain > best_gain) { best_gain = -gain; best_to = to; }
      }
      gain = 0;
      for (int to = from + 1; to < n; ++to) {  // move down past ranking[to]
        const int b = ranking[to];
        gain += static_cast<std::int64_t>(o.at(a, b)) - o.at(b, a);
        if (-gain > best_gain) { best_gain = -gain; best_to = to; }
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
  for (size_t i = 0; i < alternatives.size(); ++i) {
    for (size_t j = 0; j < alternatives.size(); ++j) {
      sub.doubled[i * alternatives.size() + j] = o.at(alternatives[i], alternatives[j]);
    }
  }
  return sub;
}

BruteForceResult brute_force(const Counts& o) {
  if (o.alternatives > 10) fail("Kemeny brute force is limited to 10 alternatives (got ", o.alternatives, ")");
  BruteForceResult result;
  Ranking ranking(o.alternatives);
  std::iota(ranking.begin(), ranking.end(), 0);
  result.distance = ~std::uint64_t{0};
  do {
    const std::uint64_t d = distance(o, ranking);
    if (d < result.distance) {
      result.distance = d;
      result.optima.clear();
    }
    if (d == result.distance) result.optima.push_back(ranking);
  } while (std::next_permutation(ranking.begin(), ranking.end()));
  return result;
}

Method parse_method(const std::string& name) {
  if (name == "auto") return Method::automatic;
  if (name == "dp") return Method::dp;
  if (name == "enumeration") return Method::enumeration;
  if (name == "heuristic") return Method::heuristic;
  fail("unknown Kemeny method '", name, "' (auto, enumeration, dp or heuristic)");
}

const char* to_string(Method method) {
  switch (method) {
    case Method::automatic: return "auto";
    case Method::dp: return "dp";
    case Method::enumeration: return "enumeration";
    case Method::heuristic: return "heuristic";
  }
  return "?";
}

std::int64_t dp_bytes(int n, int distance_bytes) {
  const std::int64_t subsets = std::int64_t{1} << n;
  const std::int64_t tables = static_cast<std::int64_t>(n) * ((std::int64_t{1} << (n / 2)) + (std::int64_t{1} << (n - n / 2)));
  return subsets * (distance_bytes + 8) + tables * distance_bytes + 8 * (n + 1) * (n + 1) + 4 * n * n;
}

bool distances_fit_32(const Counts& o) {
  std::uint64_t largest = 0;  // every DP entry is at most the sum over pairs of the larger count
  for (int i = 0; i < o.alternatives; ++i) {
    for (int j = i + 1; j < o.alternatives; ++j) largest += std::max(o.at(i, j), o.at(j, i));
  }
  return largest < 0xffffffffull;
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

std::string format_ranking(const Ranking& ranking, const std::vector<std::string>& names) {
  std::string text;
  for (size_t p = 0; p < ranking.size(); ++p) text += (p ? " > " : "") + names[ranking[p]];
  return text;
}

}  // namespace kollective::kemeny

namespace kollective::kemeny {

PlannedWork planned_work(const Counts& o, const Options& options, std::int64_t device_bytes) {
  PlannedWork work;
  auto dp_steps = [](int n) { return n * std::ldexp(1.0, n); };
  switch (options.method) {
    case Method::enumeration:
      work.rankings = std::tgamma(o.alternatives + 1.0);
      break;
    case Method::dp:
      work.dp_steps = dp_steps(o.alternatives);
      break;
    case Method::heuristic:
      break;
    case Method::automatic:
      for (const auto& component : condorcet_components(o)) {
        const int size = static_cast<int>(component.size());
        if (size > 2 && size <= dp_max_alternatives && dp_bytes(size, 8) <= device_bytes) work.dp_steps += dp_steps(size);
      }
      break;
  }
  return work;
}

}  // namespace kollective::kemeny
