#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/core/Interrupt.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <thread>

#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/Timer.hpp"

namespace kollective::kemeny {

namespace {
Ranking sorted_by_score(int n, const std::function<std::int64_t(int)>& score) {
  Ranking ranking(n);
  std::iota(ranking.begin(), ranking.end(), 0);
  std::stable_sort(ranking.begin(), ranking.end(), [&](int a, int b) { return score(a) > score(b); });
  return ranking;
}

/// The best place for the alternative at `from`: where moving it alone lowers the distance most
/// (`gain`, 0 and `from` where no place does), places above tried nearest first, then those below.
/// margin(a, b) = o[a][b] - o[b][a], what the distance falls by when a passes above b.
struct Insertion {
  int to;
  std::int64_t gain;
};
template <class Margin>
Insertion best_insertion(const Ranking& ranking, int from, const Margin& margin) {
  const int a = ranking[from];
  Insertion best{from, 0};
  std::int64_t running = 0;
  for (int to = from - 1; to >= 0; --to) {
    running += margin(a, ranking[to]);
    if (running > best.gain) best = {to, running};
  }
  running = 0;
  for (int to = from + 1; to < static_cast<int>(ranking.size()); ++to) {
    running -= margin(a, ranking[to]);
    if (running > best.gain) best = {to, running};
  }
  return best;
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
  const auto margin = [&](int a, int b) { return std::int64_t{o.at(a, b)} - o.at(b, a); };
  const int n = static_cast<int>(ranking.size());
  bool improved = true;
  while (improved) {
    improved = false;
    for (int from = 0; from < n; ++from) {
      const Insertion best = best_insertion(ranking, from, margin);
      if (best.gain > 0) {
        const int a = ranking[from];
        ranking.erase(ranking.begin() + from);
        ranking.insert(ranking.begin() + best.to, a);
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

namespace {

/// One chain of the iterated local search: a ranking, each alternative's place, its distance.
class Chain {
 public:
  Chain(const Margins& margins, const Ranking& start, std::uint64_t distance, std::uint64_t seed)
      : margins_(margins),
        ranking_(start),
        place_(start.size()),
        queued_(start.size(), 0),
        distance_(distance),
        rng_(seed) {
    for (std::size_t p = 0; p < ranking_.size(); ++p) place_[ranking_[p]] = static_cast<int>(p);
  }

  const Ranking& ranking() const { return ranking_; }
  std::uint64_t distance() const { return distance_; }
  void reset(const Ranking& ranking, std::uint64_t distance) {
    ranking_ = ranking;
    distance_ = distance;
    for (std::size_t p = 0; p < ranking_.size(); ++p) place_[ranking_[p]] = static_cast<int>(p);
  }

  /// Moves `kicks` random alternatives to random places, then descends from them.
  void kick_and_descend(int kicks) {
    const int n = static_cast<int>(ranking_.size());
    for (int k = 0; k < kicks; ++k) {
      const int from = static_cast<int>(uniform_below(rng_, n));
      const int to = static_cast<int>(uniform_below(rng_, n));
      distance_ -= static_cast<std::uint64_t>(gain(from, to));  // modulo 2^64: a loss adds
      move(from, to);
    }
    descend();
  }

  /// Every alternative looked at once (a local optimum of the insertion moves, up to the rule
  /// that an alternative is looked at again only once a move passes it).
  void descend_all() {
    for (int a : ranking_) push(a);
    descend();
  }

  /// descend_all again until a pass moves nothing: no insertion move gains.
  void descend_to_local_optimum() {
    for (std::uint64_t before = distance_ + 1; distance_ < before;) {
      before = distance_;
      descend_all();
    }
  }

 private:
  /// What the distance falls by when the alternative at `from` moves to `to`.
  std::int64_t gain(int from, int to) const {
    const std::int64_t* row = margins_.row(ranking_[from]);
    std::int64_t total = 0;
    for (int p = to; p < from; ++p) total += row[ranking_[p]];       // passes above them
    for (int p = from + 1; p <= to; ++p) total -= row[ranking_[p]];  // passes below them
    return total;
  }

  /// The alternative at `from` to `to`; the alternatives it passes are looked at again.
  void move(int from, int to) {
    if (from < to) {
      std::rotate(ranking_.begin() + from, ranking_.begin() + from + 1, ranking_.begin() + to + 1);
    } else {
      std::rotate(ranking_.begin() + to, ranking_.begin() + from, ranking_.begin() + from + 1);
    }
    for (int p = std::min(from, to); p <= std::max(from, to); ++p) {
      place_[ranking_[p]] = p;
      push(ranking_[p]);
    }
  }

  void push(int a) {
    if (!queued_[a]) {
      queued_[a] = 1;
      pending_.push_back(a);
    }
  }

  /// Best insertion moves of the pending alternatives while one gains.
  void descend() {
    while (!pending_.empty()) {
      const int a = pending_.back();
      pending_.pop_back();
      queued_[a] = 0;
      const int from = place_[a];
      const std::int64_t* row = margins_.row(a);
      const Insertion best = best_insertion(ranking_, from, [row](int, int b) { return row[b]; });
      if (best.gain > 0) {
        distance_ -= static_cast<std::uint64_t>(best.gain);
        move(from, best.to);
      }
    }
  }

  const Margins& margins_;
  Ranking ranking_;
  std::vector<int> place_;
  std::vector<char> queued_;
  std::vector<int> pending_;
  std::uint64_t distance_;
  HostRng rng_;
};

/// One chain's search from `start`: the best ranking it found and its distance.
/// `interruption`: shared by the chains, polled every 16 rounds.
std::pair<Ranking, std::uint64_t> search_chain(const Margins& margins, const Ranking& start, std::uint64_t distance,
                                               const SearchLimits& limits, std::uint64_t seed,
                                               kollective::Impl::RegionInterruption& interruption) {
  const WallTimer timer;
  Chain chain(margins, start, distance, seed);
  chain.descend_all();
  Ranking best = chain.ranking();
  std::uint64_t best_distance = chain.distance();
  const std::int64_t patience = static_cast<std::int64_t>(start.size());
  std::int64_t fruitless = 0, stale = 0;
  for (std::int64_t round = 0; best_distance > limits.floor; ++round, ++stale) {
    if (limits.rounds > 0 && round >= limits.rounds) break;
    if (limits.stale_rounds > 0 && stale >= limits.stale_rounds) break;
    if (limits.stopped()) break;
    if (limits.seconds > 0 && (round & 15) == 0 && timer.seconds() >= limits.seconds) break;
    if ((round & 15) == 0 && interruption.poll()) break;
    const Ranking before = chain.ranking();
    const std::uint64_t before_distance = chain.distance();
    chain.kick_and_descend(round_kicks(static_cast<int>(start.size())));
    if (chain.distance() < best_distance) {
      best = chain.ranking();
      best_distance = chain.distance();
      fruitless = stale = 0;
    } else if (++fruitless > patience) {
      chain.reset(best, best_distance);
      fruitless = 0;
    } else if (chain.distance() > best_distance + best_distance / accept_above_best) {
      chain.reset(before, before_distance);
    }
  }
  return {best, best_distance};
}

/// A member of the memetic search's population: a local optimum, its distance, where each
/// alternative stands.
struct Member {
  Ranking ranking;
  std::uint64_t distance = 0;
  std::vector<int> place;
};

bool lower_distance(const Member& x, const Member& y) { return x.distance < y.distance; }

/// Cycle crossover: the places split into cycles (p, then where x holds y's alternative at p,
/// ...), each of them filled from x or from y at random; where x and y agree, both keep it.
Ranking cycle_crossover(const Member& x, const Member& y, HostRng& rng) {
  const int n = static_cast<int>(x.ranking.size());
  Ranking child(n, -1);
  for (int p = 0; p < n; ++p) {
    if (child[p] >= 0) continue;
    const Ranking& from = (rng() & 1) ? x.ranking : y.ranking;
    int q = p;
    do {
      child[q] = from[q];
      q = x.place[y.ranking[q]];
    } while (q != p);
  }
  return child;
}

/// Spearman's footrule: how far the alternatives stand apart in the two rankings, summed.
std::int64_t footrule(const Member& x, const Member& y) {
  std::int64_t total = 0;
  for (std::size_t a = 0; a < x.place.size(); ++a) total += std::abs(x.place[a] - y.place[a]);
  return total;
}

/// The next population from the current one and its children (Segura et al.'s replacement with
/// enhanced diversity management): the best member first, then again and again, among those at
/// least `spread` (footrule) from every member taken, the best; where none is that far, the one
/// farthest from them.
std::vector<Member> replace(std::vector<Member> pool, std::size_t size, double spread) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const auto best = std::min_element(pool.begin(), pool.end(), lower_distance);
  std::vector<Member> next;
  next.push_back(std::move(*best));
  pool.erase(best);
  std::vector<std::int64_t> apart(pool.size(), std::numeric_limits<std::int64_t>::max());
  while (next.size() < size && !pool.empty()) {
    const Member& taken = next.back();
    Kokkos::parallel_for("Kollective::Kemeny::memetic_apart",
                         Kokkos::RangePolicy<Host>(0, static_cast<std::int64_t>(pool.size())),
                         [&](std::int64_t i) { apart[i] = std::min(apart[i], footrule(pool[i], taken)); });
    Host().fence("Kollective::Kemeny::memetic_apart");
    std::size_t chosen = 0;
    for (std::size_t i = 1; i < pool.size(); ++i) {
      const bool far = apart[i] >= spread, chosen_far = apart[chosen] >= spread;
      const bool better = pool[i].distance < pool[chosen].distance ||
                          (pool[i].distance == pool[chosen].distance && apart[i] > apart[chosen]);
      const bool farther =
          apart[i] > apart[chosen] || (apart[i] == apart[chosen] && pool[i].distance < pool[chosen].distance);
      if (chosen_far ? far && better : farther) chosen = i;
    }
    next.push_back(std::move(pool[chosen]));
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(chosen));
    apart.erase(apart.begin() + static_cast<std::ptrdiff_t>(chosen));
  }
  return next;
}

}  // namespace

Ranking iterated_local_search(const Counts& o, const Ranking& start, const SearchLimits& limits, std::uint64_t seed) {
  if (o.alternatives < 3) return start;
  const Margins margins(o);
  const std::uint64_t distance_of_start = distance(o, start);
  using Host = Kokkos::DefaultHostExecutionSpace;
  const int chains = Host().concurrency();
  std::vector<std::pair<Ranking, std::uint64_t>> found(chains);
  kollective::Impl::RegionInterruption interruption;
  std::atomic<int> searching{0};
  Kokkos::parallel_for(
      "Kollective::Kemeny::iterated_local_search", Kokkos::RangePolicy<Host>(0, chains), [&](int chain) {
        ++searching;
        found[chain] = search_chain(margins, start, distance_of_start, limits, seed + chain, interruption);
        --searching;
        // The thread with the check goes on polling while other chains search: an interrupt must
        // not wait for the slowest chain.
        while (interruption.checked_here() && searching.load() > 0 && !interruption.poll())
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
      });
  Host().fence("Kollective::Kemeny::iterated_local_search");
  interruption.rethrow();
  const auto best =
      std::min_element(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
  return local_search(o, best->first);
}

void descend_on_host(const Margins& margins, const Counts& o, std::vector<Ranking>& rankings,
                     std::vector<std::uint64_t>& distances) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  // One ranking at a time to the next free thread, not fixed shares: a batch's slowest descent
  // takes 2.5-3.2x the mean one, and on the 2-core CPU a generation of 20 children took 13-19%
  // less time (record perf/results/kemeny/cpu_anytime/).
  using Dynamic = Kokkos::RangePolicy<Host, Kokkos::Schedule<Kokkos::Dynamic>>;
  Kokkos::parallel_for("Kollective::Kemeny::memetic_descents",
                       Dynamic(0, static_cast<std::int64_t>(rankings.size())).set_chunk_size(1), [&](std::int64_t i) {
                         Chain chain(margins, rankings[i], distance(o, rankings[i]), 0);
                         chain.descend_to_local_optimum();
                         rankings[i] = chain.ranking();
                         distances[i] = chain.distance();
                       });
  Host().fence("Kollective::Kemeny::memetic_descents");
}

Ranking memetic_search(const Counts& o, const Ranking& start, const SearchLimits& limits, std::uint64_t seed,
                       int population_size) {
  const Margins margins(o);
  return memetic_search(o, start, limits, seed, population_size, population_size,
                        [&](std::vector<Ranking>& rankings, std::vector<std::uint64_t>& distances) {
                          descend_on_host(margins, o, rankings, distances);
                        });
}

namespace {
/// The rankings descended by `descend`, as members.
std::vector<Member> descended(std::vector<Ranking> rankings, const DescendBatch& descend) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  std::vector<std::uint64_t> distances(rankings.size());
  descend(rankings, distances);
  std::vector<Member> members(rankings.size());
  Kokkos::parallel_for("Kollective::Kemeny::memetic_members",
                       Kokkos::RangePolicy<Host>(0, static_cast<std::int64_t>(members.size())), [&](std::int64_t i) {
                         members[i].place = places(rankings[i]);
                         members[i].ranking = std::move(rankings[i]);
                         members[i].distance = distances[i];
                       });
  Host().fence("Kollective::Kemeny::memetic_members");
  return members;
}

/// The mean footrule between the members (the replacement's first spread).
double mean_footrule(const std::vector<Member>& population) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const std::int64_t size = static_cast<std::int64_t>(population.size());
  double total = 0;
  Kokkos::parallel_reduce(
      "Kollective::Kemeny::memetic_spread", Kokkos::RangePolicy<Host>(0, size),
      [&](std::int64_t i, double& sum) {
        for (std::int64_t j = i + 1; j < size; ++j) sum += static_cast<double>(footrule(population[i], population[j]));
      },
      total);
  return total / static_cast<double>(std::max<std::int64_t>(1, size * (size - 1) / 2));
}
}  // namespace

Ranking memetic_search(const Counts& o, const Ranking& start, const SearchLimits& limits, std::uint64_t seed,
                       int population_size, int children, const DescendBatch& descend) {
  const int n = o.alternatives;
  if (n < 3 || population_size < 1 || children < 1) return start;
  const WallTimer timer;
  using Host = Kokkos::DefaultHostExecutionSpace;
  const auto child_rng = [seed](std::int64_t generation, int child) {
    return HostRng(mix64(seed ^ mix64(static_cast<std::uint64_t>(generation) * 0x9e3779b97f4a7c15ull + child)));
  };
  // The first population: `start` and random rankings, each descended to a local optimum.
  std::vector<Ranking> first(population_size, start);
  for (int i = 1; i < population_size; ++i) {
    HostRng rng = child_rng(-1, i);
    std::shuffle(first[i].begin(), first[i].end(), rng);
  }
  std::vector<Member> population = descended(std::move(first), descend);
  // The spread the replacement asks for falls from the first population's mean footrule to 0 as
  // the time (or the generations) run out.
  const double initial_spread = mean_footrule(population);
  Member best = *std::min_element(population.begin(), population.end(), lower_distance);
  std::int64_t stale = 0;
  for (std::int64_t generation = 0; best.distance > limits.floor; ++generation, ++stale) {
    if (limits.rounds > 0 && generation >= limits.rounds) break;
    if (limits.stale_rounds > 0 && stale >= limits.stale_rounds) break;
    if (limits.stopped()) break;
    const double elapsed = timer.seconds();
    if (limits.seconds > 0 && elapsed >= limits.seconds) break;
    kollective::Impl::interruption_point();
    std::vector<Ranking> crossed(children);
    Kokkos::parallel_for("Kollective::Kemeny::memetic_crossovers", Kokkos::RangePolicy<Host>(0, children), [&](int c) {
      HostRng rng = child_rng(generation, c);
      const auto parent = [&] {  // the better of two drawn at random
        const Member& x = population[uniform_below(rng, population_size)];
        const Member& y = population[uniform_below(rng, population_size)];
        return &(x.distance <= y.distance ? x : y);
      };
      const Member* x = parent();
      const Member* y = parent();
      crossed[c] = cycle_crossover(*x, *y, rng);
    });
    Host().fence("Kollective::Kemeny::memetic_crossovers");
    std::vector<Member> pool = std::move(population);
    for (Member& child : descended(std::move(crossed), descend)) {
      if (child.distance < best.distance) {
        best = child;
        stale = -1;
      }
      pool.push_back(std::move(child));
    }
    const double progress = limits.seconds > 0  ? elapsed / limits.seconds
                            : limits.rounds > 0 ? static_cast<double>(generation) / static_cast<double>(limits.rounds)
                                                : 0.0;
    population = replace(std::move(pool), population_size, initial_spread * std::max(0.0, 1.0 - progress));
  }
  return best.distance < distance(o, start) ? best.ranking : start;
}

}  // namespace kollective::kemeny
