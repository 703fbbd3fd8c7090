#include "kollective/algorithms/kemeny/impl/KemenyLadders.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>

namespace kollective::kemeny {

bool valid_ladder(const Ladder& ladder, int n) {
  const auto& cycles = ladder.cycles;
  const std::size_t k = cycles.size();
  if (k % 2 == 0) return false;
  std::vector<std::vector<std::pair<int, int>>> arcs_of(k);
  std::map<std::pair<int, int>, int> uses;
  for (std::size_t p = 0; p < k; ++p) {
    const auto& cycle = cycles[p];
    if (cycle.size() != 3 && cycle.size() != 4) return false;
    for (std::size_t q = 0; q < cycle.size(); ++q) {
      if (cycle[q] < 0 || cycle[q] >= n || std::count(cycle.begin(), cycle.end(), cycle[q]) != 1) return false;
      arcs_of[p].emplace_back(cycle[q], cycle[(q + 1) % cycle.size()]);
      if (++uses[arcs_of[p].back()] > 2) return false;
    }
    std::sort(arcs_of[p].begin(), arcs_of[p].end());
  }
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t q = p + 1; q < k; ++q) {
      std::vector<std::pair<int, int>> shared;
      std::set_intersection(arcs_of[p].begin(), arcs_of[p].end(), arcs_of[q].begin(), arcs_of[q].end(),
                            std::back_inserter(shared));
      const bool consecutive = k > 1 && (q == p + 1 || (p == 0 && q == k - 1));
      if (shared.size() != (consecutive ? 1u : 0u)) return false;
    }
  }
  return true;
}

namespace {

constexpr double ladder_tolerance = 1e-6;
constexpr double infinite = std::numeric_limits<double>::infinity();

/// The rung graph of an LP point (KemenyLadders.hpp), its edges in compressed rows.
struct RungGraph {
  int n = 0;
  std::vector<double> value;               // x(a, b) at a * n + b: a before b
  std::vector<std::pair<int, int>> rungs;  // the arcs with x < 1
  std::vector<int> rung_at;                // a * n + b -> its rung, or -1
  std::vector<int> starts = {0}, heads;
  std::vector<double> weights;
  double lightest = 0;  // the lightest edge (0 if lighter than none)

  RungGraph(const std::vector<double>& x, int alternatives, double edge_max)
      : n(alternatives), value(static_cast<std::size_t>(n) * n, 0.0), rung_at(value.size(), -1) {
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        value[i * n + j] = x[static_cast<std::size_t>(i) * n + j];
        value[j * n + i] = 1 - value[i * n + j];
      }
    }
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        if (a != b && value[a * n + b] < 1 - ladder_tolerance) {
          rung_at[a * n + b] = static_cast<int>(rungs.size());
          rungs.emplace_back(a, b);
        }
      }
    }
    for (const auto& [a, b] : rungs) {
      const double xe = at(a, b);
      auto join = [&](int c, int d, double slack) {  // to the rung c -> d through a dicycle of this slack
        const int f = rung_at[c * n + d];
        const double weight = slack + (xe + at(c, d)) / 2 - 0.5;
        if (f < 0 || !(weight < edge_max)) return;
        heads.push_back(f);
        weights.push_back(weight);
        lightest = std::min(lightest, weight);
      };
      for (int c = 0; c < n; ++c) {
        if (c == a || c == b) continue;
        const double triangle = 2 - xe - at(b, c) - at(c, a);  // a -> b -> c -> a
        join(b, c, triangle);
        join(c, a, triangle);
      }
      starts.push_back(static_cast<int>(heads.size()));
    }
  }

  double at(int a, int b) const { return value[a * n + b]; }

  /// The triangle that holds rung e and then rung f (joined by an edge), its alternatives in order.
  std::vector<int> cycle(int e, int f) const {
    const auto [a, b] = rungs[e];
    const auto [c, d] = rungs[f];
    return b == c ? std::vector<int>{a, b, d} : std::vector<int>{a, b, c};  // f = (b, d), else f = (c, a)
  }
};

/// The lightest walks of t steps from one rung, per rung reached: the two lightest that arrive
/// from different rungs, so that a walk can go on without stepping straight back.
class Walks {
 public:
  struct Step {
    double weight = infinite;
    int from = -1;      // the rung before, at t - 1
    int from_slot = 0;  // which of its two walks
  };

  Walks(int rungs, int most_steps)
      : steps_(static_cast<std::size_t>(most_steps + 1) * rungs * 2), reached_(most_steps + 1), rungs_(rungs) {}

  /// The walks of up to `most_steps` steps from `source`, not through `blocked` rungs, whose weight
  /// may still close below 1/2.
  void search(const RungGraph& graph, int source, int most_steps, const std::vector<char>& blocked) {
    for (int t = 0; t <= most_steps; ++t) {
      for (const int v : reached_[t]) entry(t, v, 0) = entry(t, v, 1) = Step{};
      reached_[t].clear();
    }
    entry(0, source, 0).weight = 0;
    reached_[0].push_back(source);
    for (int t = 1; t <= most_steps; ++t) {
      const double most = 0.5 - ladder_tolerance - (most_steps - t) * graph.lightest;  // lightest <= 0
      for (const int v : reached_[t - 1]) {
        for (int edge = graph.starts[v]; edge < graph.starts[v + 1]; ++edge) {
          const int w = graph.heads[edge];
          if (blocked[w]) continue;
          const int from_slot = slot(t - 1, v, 0).from == w ? 1 : 0;
          const double weight = slot(t - 1, v, from_slot).weight + graph.weights[edge];
          if (weight < most) arrive(t, w, Step{weight, v, from_slot});
        }
      }
    }
  }

  const Step& slot(int t, int v, int s) const { return steps_[(static_cast<std::size_t>(t) * rungs_ + v) * 2 + s]; }

  /// The rungs of the walk that ends at v after t steps by its slot s: e_0 (the source) .. e_{t-1}.
  std::vector<int> walk(int t, int v, int s) const {
    std::vector<int> rungs(t);
    for (int step = t; step > 0; --step) {
      const Step& last = slot(step, v, s);
      v = last.from, s = last.from_slot;
      rungs[step - 1] = v;
    }
    return rungs;
  }

 private:
  Step& entry(int t, int v, int s) { return steps_[(static_cast<std::size_t>(t) * rungs_ + v) * 2 + s]; }

  void arrive(int t, int w, const Step& step) {
    Step& first = entry(t, w, 0);
    Step& second = entry(t, w, 1);
    if (first.weight == infinite) reached_[t].push_back(w);
    if (first.from == step.from) {
      if (step.weight < first.weight) first = step;
    } else if (step.weight < first.weight) {
      second = first, first = step;
    } else if (step.weight < second.weight) {
      second = step;
    }
  }

  std::vector<Step> steps_;
  std::vector<std::vector<int>> reached_;
  int rungs_;
};

}  // namespace

std::vector<Cut> violated_ladders(const std::vector<double>& x, int n, const LadderSearch& limits) {
  const RungGraph graph(x, n, limits.edge_max);
  const int rungs = static_cast<int>(graph.rungs.size());
  Walks walks(rungs, limits.most_cycles);
  std::set<std::vector<std::pair<int, int>>> seen;  // arc sets found
  std::vector<std::pair<double, Cut>> found;        // violation, ladder
  // Fractional rungs (every violated ladder has one) by their lightest edge, each searched without
  // those searched before it (their walks were found then), until enough ladders are found.
  std::vector<std::pair<double, int>> sources;
  for (int e = 0; e < rungs; ++e) {
    const auto [a, b] = graph.rungs[e];
    if (graph.at(a, b) <= ladder_tolerance || graph.starts[e] == graph.starts[e + 1]) continue;
    sources.emplace_back(
        *std::min_element(graph.weights.begin() + graph.starts[e], graph.weights.begin() + graph.starts[e + 1]), e);
  }
  std::sort(sources.begin(), sources.end());
  std::vector<char> searched(rungs, 0);
  for (const auto& [lightest, source] : sources) {
    if (found.size() >= static_cast<std::size_t>(limits.most_ladders)) break;
    walks.search(graph, source, limits.most_cycles, searched);
    searched[source] = 1;
    for (int k = 3; k <= limits.most_cycles; k += 2) {
      for (int s = 0; s < 2; ++s) {
        if (!(walks.slot(k, source, s).weight < 0.5 - ladder_tolerance)) continue;
        const std::vector<int> walk = walks.walk(k, source, s);
        auto ladder = std::make_shared<Ladder>();
        for (int j = 0; j < k; ++j) ladder->cycles.push_back(graph.cycle(walk[j], walk[(j + 1) % k]));
        if (!valid_ladder(*ladder, n)) continue;
        Cut cut{{}, std::move(ladder)};
        CutArcs row = cut_arcs(cut);
        double kept = 0;
        for (const auto& [p, q] : row.arcs) kept += graph.at(p, q);
        std::sort(row.arcs.begin(), row.arcs.end());
        if (kept - row.most_kept > ladder_tolerance && seen.insert(row.arcs).second)
          found.emplace_back(kept - row.most_kept, std::move(cut));
      }
    }
  }
  // Most violated first; ties in the order found, which is deterministic.
  std::stable_sort(found.begin(), found.end(), [](const auto& l, const auto& r) { return l.first > r.first; });
  if (found.size() > static_cast<std::size_t>(limits.most_ladders)) found.resize(limits.most_ladders);
  std::vector<Cut> ladders;
  for (auto& entry : found) ladders.push_back(std::move(entry.second));
  return ladders;
}

}  // namespace kollective::kemeny
