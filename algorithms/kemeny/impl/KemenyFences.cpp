#include "kollective/algorithms/kemeny/impl/KemenyFences.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <utility>

namespace kollective::kemeny {

namespace {

constexpr double fence_tolerance = 1e-6;

/// The fractional arcs of an LP point and the pairwise terms of the 3-fence value over them.
class Pales {
 public:
  Pales(const std::vector<double>& x, int n, int most) : x_(x), n_(n) {
    std::vector<std::pair<double, std::pair<int, int>>> fractional;  // distance from 1/2, arc
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        const double value = b == a ? 0 : at(a, b);
        if (value > fence_tolerance && value < 1 - fence_tolerance)
          fractional.push_back({std::abs(value - 0.5), {a, b}});
      }
    }
    std::sort(fractional.begin(), fractional.end());
    if (fractional.size() > static_cast<std::size_t>(most)) fractional.resize(most);
    for (const auto& entry : fractional) arcs.push_back(entry.second);
    std::sort(arcs.begin(), arcs.end());
    const std::size_t count = arcs.size();
    pair_term.assign(count * count, -std::numeric_limits<double>::infinity());
    for (std::size_t p = 0; p < count; ++p) {
      for (std::size_t q = p + 1; q < count; ++q) {
        if (!disjoint(p, q)) continue;
        const double term = value(p) + value(q) - at(arcs[p].first, arcs[q].second) - at(arcs[q].first, arcs[p].second);
        pair_term[p * count + q] = pair_term[q * count + p] = term;
        largest_term = std::max(largest_term, term);
      }
    }
  }

  /// x(a, b): the LP's value of a before b.
  double at(int a, int b) const { return arc_value(x_, n_, a, b); }
  double value(std::size_t p) const { return at(arcs[p].first, arcs[p].second); }
  double term(std::size_t p, std::size_t q) const { return pair_term[p * arcs.size() + q]; }
  bool disjoint(std::size_t p, std::size_t q) const {
    const auto [a, b] = arcs[p];
    const auto [c, d] = arcs[q];
    return a != c && a != d && b != c && b != d;
  }

  std::vector<std::pair<int, int>> arcs;  // (u, l), in order
  std::vector<double> pair_term;          // H(p, q); minus infinity where p and q share an alternative
  double largest_term = -std::numeric_limits<double>::infinity();

 private:
  const std::vector<double>& x_;
  int n_;
};

using Found = std::pair<double, std::vector<int>>;  // F, pale indices in increasing order

/// Every 3-fence with F above `floor`, at most `most` of them (the search stops there).
std::vector<Found> three_fences(const Pales& pales, double floor, std::size_t most) {
  std::vector<Found> found;
  const std::size_t count = pales.arcs.size();
  std::vector<std::pair<double, std::size_t>> partners;  // H(p, q) - x_q, q
  for (std::size_t p = 0; p < count && found.size() < most; ++p) {
    partners.clear();
    for (std::size_t q = p + 1; q < count; ++q) {
      if (std::isfinite(pales.term(p, q))) partners.push_back({pales.term(p, q) - pales.value(q), q});
    }
    std::sort(partners.begin(), partners.end(), [](const auto& l, const auto& r) { return l.first > r.first; });
    // F = (H_pq - x_q) + (H_pr - x_r) + H_qr - x_p, and H_qr is at most largest_term.
    const double needed = floor + pales.value(p) - pales.largest_term;
    for (std::size_t i = 0; i < partners.size() && found.size() < most; ++i) {
      if (partners[i].first + (i + 1 < partners.size() ? partners[i + 1].first : -1e300) <= needed) break;
      for (std::size_t j = i + 1; j < partners.size(); ++j) {
        if (partners[i].first + partners[j].first <= needed) break;
        const std::size_t q = partners[i].second, r = partners[j].second;
        const double value = partners[i].first + partners[j].first + pales.term(q, r) - pales.value(p);
        if (value > floor)
          found.push_back(
              {value, {static_cast<int>(p), static_cast<int>(std::min(q, r)), static_cast<int>(std::max(q, r))}});
      }
    }
  }
  return found;
}

/// The fence grown from `seed` by the pale that raises F most, while one does and it has fewer
/// than `largest` pales.
Found grown(const Pales& pales, Found seed, int largest) {
  const std::size_t count = pales.arcs.size();
  while (static_cast<int>(seed.second.size()) < largest) {
    double best_gain = 1e-9;
    std::size_t best = count;
    for (std::size_t s = 0; s < count; ++s) {
      double gain = pales.value(s);
      for (int p : seed.second) {
        if (!pales.disjoint(p, s)) {
          gain = -1;
          break;
        }
        gain -=
            pales.at(pales.arcs[p].first, pales.arcs[s].second) + pales.at(pales.arcs[s].first, pales.arcs[p].second);
      }
      if (gain > best_gain) best_gain = gain, best = s;
    }
    if (best == count) break;
    seed.first += best_gain;
    seed.second.push_back(static_cast<int>(best));
  }
  std::sort(seed.second.begin(), seed.second.end());
  return seed;
}

}  // namespace

bool valid_fence(const Fence& fence, int n) {
  if (fence.pales.size() < 3) return false;
  std::vector<int> alternatives;
  for (const auto& [u, l] : fence.pales) alternatives.insert(alternatives.end(), {u, l});
  std::sort(alternatives.begin(), alternatives.end());
  return alternatives.front() >= 0 && alternatives.back() < n &&
         std::adjacent_find(alternatives.begin(), alternatives.end()) == alternatives.end();
}

std::vector<Cut> violated_fences(const std::vector<double>& x, int n, const FenceSearch& limits) {
  const Pales pales(x, n, limits.most_pales);
  // Seeds of value above 1/2 (a violated fence's best three pales are at least there, most often).
  std::vector<Found> candidates = three_fences(pales, 0.5, std::size_t{1} << 20);
  const auto more_violated = [](const Found& l, const Found& r) {
    return l.first != r.first ? l.first > r.first : l.second < r.second;
  };
  std::sort(candidates.begin(), candidates.end(), more_violated);
  const std::size_t seeds = std::min(candidates.size(), static_cast<std::size_t>(limits.seeds));
  for (std::size_t s = 0; s < seeds && limits.largest > 3; ++s)
    candidates.push_back(grown(pales, candidates[s], limits.largest));
  std::sort(candidates.begin(), candidates.end(), more_violated);
  std::set<std::vector<int>> seen;
  std::vector<int> uses(pales.arcs.size(), 0);
  std::vector<Cut> fences;
  for (const auto& [value, chosen] : candidates) {
    if (!(value > 1 + fence_tolerance) || fences.size() >= static_cast<std::size_t>(limits.most_fences)) break;
    if (std::any_of(chosen.begin(), chosen.end(), [&](int p) { return uses[p] >= limits.uses_per_pale; })) continue;
    if (!seen.insert(chosen).second) continue;
    auto fence = std::make_shared<Fence>();
    for (int p : chosen) fence->pales.push_back(pales.arcs[p]), ++uses[p];
    fences.push_back(Cut{{}, nullptr, std::move(fence)});
  }
  return fences;
}

}  // namespace kollective::kemeny
