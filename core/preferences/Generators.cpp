#include "kollective/core/preferences/Generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "kollective/core/Error.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/preferences/Pairwise.hpp"

namespace kollective::preferences {

namespace {

void check_sizes(const char* generator, int alternatives, std::int64_t voters) {
  if (alternatives < 1 || alternatives > 100000)
    fail(generator, ": alternatives must be in 1..100000, got ", alternatives);
  if (voters < 1 || voters >= (std::int64_t{1} << 31)) fail(generator, ": voters must be in 1..2^31-1, got ", voters);
}

std::vector<int> random_order(int n, HostRng& rng) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[uniform_below(rng, i + 1)]);
  return order;
}

Ballot strict_ballot(const std::vector<int>& order, std::int64_t count) {
  Ballot ballot;
  ballot.count = count;
  for (int a : order) ballot.groups.push_back({a});
  return ballot;
}

Profile empty_profile(int alternatives, const std::string& title) {
  Profile profile;
  profile.alternatives = alternatives;
  profile.names = numbered_names(alternatives);
  profile.title = title;
  return profile;
}

}  // namespace

Profile impartial_culture(int alternatives, std::int64_t voters, std::uint64_t seed) {
  check_sizes("impartial culture", alternatives, voters);
  HostRng rng(seed);
  Profile profile = empty_profile(alternatives, "impartial culture, seed " + std::to_string(seed));
  for (std::int64_t v = 0; v < voters; ++v)
    profile.ballots.push_back(strict_ballot(random_order(alternatives, rng), 1));
  profile.merge_identical();
  return profile;
}

Profile mallows(int alternatives, std::int64_t voters, double phi, std::uint64_t seed) {
  check_sizes("mallows", alternatives, voters);
  if (!(phi >= 0.0 && phi <= 1.0)) fail("mallows: phi must be in [0, 1], got ", phi);
  HostRng rng(seed);
  Profile profile =
      empty_profile(alternatives, "mallows phi " + std::to_string(phi) + ", seed " + std::to_string(seed));
  // Insertion probabilities: item i (0-based) goes to position j in 0..i with weight phi^(i-j).
  for (std::int64_t v = 0; v < voters; ++v) {
    std::vector<int> order;
    order.reserve(alternatives);
    for (int i = 0; i < alternatives; ++i) {
      double total = 0.0;
      for (int j = 0; j <= i; ++j) total += std::pow(phi, i - j);
      double draw = uniform_unit(rng) * total;
      int position = i;
      for (int j = 0; j <= i; ++j) {
        draw -= std::pow(phi, i - j);
        if (draw < 0.0) {
          position = j;
          break;
        }
      }
      order.insert(order.begin() + position, i);
    }
    profile.ballots.push_back(strict_ballot(order, 1));
  }
  profile.merge_identical();
  return profile;
}

Profile mallows_mixture(int alternatives, std::int64_t voters, double phi, std::uint64_t seed) {
  Profile profile = mallows(alternatives, (voters + 1) / 2, phi, seed);
  if (voters >= 2) {
    const Profile opposite = mallows(alternatives, voters / 2, phi, seed ^ 0x9e3779b97f4a7c15ull);
    for (Ballot ballot : opposite.ballots) {  // relabel a -> n - 1 - a: around the reversed order
      for (auto& group : ballot.groups) {
        for (int& a : group) a = alternatives - 1 - a;
      }
      profile.ballots.push_back(std::move(ballot));
    }
  }
  profile.merge_identical();
  profile.title = "two opposite Mallows, phi " + std::to_string(phi) + ", seed " + std::to_string(seed);
  return profile;
}

bool has_condorcet_winner(const Profile& profile) {
  const PairwiseCounts counts = pairwise_reference(profile);
  for (int i = 0; i < counts.alternatives; ++i) {
    bool beats_all = true;
    for (int j = 0; j < counts.alternatives && beats_all; ++j) {
      beats_all = i == j || counts.at(i, j) > counts.at(j, i);
    }
    if (beats_all) return true;
  }
  return false;
}

Profile kemeny_benchmark(int alternatives, std::int64_t m, std::uint64_t seed, int max_attempts) {
  check_sizes("kemeny benchmark", alternatives, m);
  if (alternatives < 3)
    fail("kemeny benchmark: needs at least 3 alternatives (with 2 there is always a Condorcet winner or a tie)");
  HostRng rng(seed);
  double factorial = 1.0;
  for (int i = 2; i <= alternatives; ++i) factorial *= i;
  const std::int64_t max_orders = factorial < static_cast<double>(m) ? static_cast<std::int64_t>(factorial) : m;
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    const std::int64_t d = 1 + static_cast<std::int64_t>(uniform_below(rng, max_orders));
    std::set<std::vector<int>> orders;
    while (static_cast<std::int64_t>(orders.size()) < d) orders.insert(random_order(alternatives, rng));
    // Weights: a random composition of m into d positive parts (d - 1 distinct cut points).
    std::set<std::int64_t> cuts;
    while (static_cast<std::int64_t>(cuts.size()) < d - 1)
      cuts.insert(1 + static_cast<std::int64_t>(uniform_below(rng, m - 1)));
    cuts.insert(m);
    Profile profile =
        empty_profile(alternatives, "kemeny benchmark m=" + std::to_string(m) + ", seed " + std::to_string(seed));
    std::int64_t previous = 0;
    auto cut = cuts.begin();
    for (const auto& order : orders) {
      profile.ballots.push_back(strict_ballot(order, *cut - previous));
      previous = *cut++;
    }
    if (!has_condorcet_winner(profile)) return profile;
  }
  fail("kemeny benchmark: no profile without a Condorcet winner in ", max_attempts, " attempts (n=", alternatives,
       ", m=", m, ")");
}

Profile generate_profile(const std::string& model, int alternatives, std::int64_t voters, double phi,
                         std::uint64_t seed) {
  if (model == "impartial_culture") return impartial_culture(alternatives, voters, seed);
  if (model == "mallows") return mallows(alternatives, voters, phi, seed);
  if (model == "mallows_mixture") return mallows_mixture(alternatives, voters, phi, seed);
  if (model == "kemeny_benchmark") return kemeny_benchmark(alternatives, voters, seed);
  fail("unknown profile generator '", model, "' (impartial_culture, mallows, mallows_mixture or kemeny_benchmark)");
}

}  // namespace kollective::preferences
