// Coalition structure generation: DP, IDP and IP on the device against brute force over all set
// partitions and the serial DP, and IDP^G's published optimum (included once per backend).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/algorithms/coalition/impl/CoalitionSubspaces.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

template <class ExecSpace>
void check_against_brute_force(const coalition::Game& game, const std::string& what) {
  const auto brute = coalition::brute_force(game);
  EXPECT_NEAR(coalition::structure_value(game, brute.structure), brute.value,
              1e-9 * std::max(1.0, std::fabs(brute.value)))
      << what;
  ExecSpace space;
  for (auto method :
       {coalition::Method::dp, coalition::Method::idp, coalition::Method::ip, coalition::Method::automatic}) {
    coalition::Options options;
    options.method = method;
    const auto result = coalition::solve(space, game, options);
    const std::string label = what + " " + coalition::to_string(method) + " (" + result.method + ")";
    EXPECT_NEAR(result.value, brute.value, 1e-9 * std::max(1.0, std::fabs(brute.value))) << label;
    coalition::check_partition(game.agents, result.structure);
    EXPECT_NEAR(coalition::structure_value(game, result.structure), result.value,
                1e-9 * std::max(1.0, std::fabs(result.value)))
        << label;
  }
}

TEST(TEST_CATEGORY, coalition_dp_and_idp_match_brute_force) {
  for (int n = 1; n <= 10; ++n) {
    check_against_brute_force<TEST_EXECSPACE>(coalition::uniform_game(n, 7 + n), "uniform n=" + std::to_string(n));
    check_against_brute_force<TEST_EXECSPACE>(coalition::normal_game(n, 11 + n), "normal n=" + std::to_string(n));
    check_against_brute_force<TEST_EXECSPACE>(coalition::idpg_benchmark(n, 1234), "idpg n=" + std::to_string(n));
  }
  for (const auto& model : coalition::value_models()) {
    for (int n : {7, 11})
      check_against_brute_force<TEST_EXECSPACE>(coalition::generate_game(model, n, 3),
                                                model + " n=" + std::to_string(n));
  }
}

/// A game with values of both signs: |C| * U(0, 1) - 0.45 |C|^1.1 (so that splitting sometimes pays).
inline coalition::Game mixed_sign_game(int n, std::uint64_t seed) {
  auto game = coalition::uniform_game(n, seed);
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    game.values[mask] -= 0.45 * std::pow(static_cast<double>(Kokkos::Experimental::popcount_builtin(mask)), 1.1);
  }
  return game;
}

/// The mixed-sign game of n - 1 agents and every distribution at n, labelled: IP's test games.
inline std::vector<std::pair<std::string, coalition::Game>> every_distribution(int n, std::uint64_t seed) {
  std::vector<std::pair<std::string, coalition::Game>> games = {{"mixed sign", mixed_sign_game(n - 1, seed)}};
  for (const auto& model : coalition::value_models())
    games.emplace_back(model, coalition::generate_game(model, n, seed));
  return games;
}

TEST(TEST_CATEGORY, coalition_values_made_here_are_the_hosts_bit_for_bit) {
  // Each coalition's value is drawn from its own stream with the portable functions, unfused: the
  // table made on this space equals the host's, every model (IDP^G's is copied from the host).
  TEST_EXECSPACE space;
  constexpr int n = 14;
  Kokkos::View<double*, TEST_EXECSPACE::memory_space> made("Kollective::test::values", std::size_t{1} << n);
  for (const auto& model : coalition::value_models()) {
    coalition::generate_values(space, model, n, 3, made);
    const auto here = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), made);
    const auto game = coalition::generate_game(model, n, 3);
    for (std::size_t mask = 0; mask < game.values.size(); ++mask) {
      ASSERT_EQ(here(mask), game.values[mask]) << model << " v(" << mask << ")";
    }
  }
}

TEST(TEST_CATEGORY, coalition_values_held_on_the_device_solve_without_a_host_table) {
  // The caller's values in the solver's memory (made there by generate_values): every method and
  // precision gives the optimum and structure of the same game solved from the host; a bad value
  // is named as the host's check names it.
  TEST_EXECSPACE space;
  constexpr int n = 13;
  Kokkos::View<double*, TEST_EXECSPACE::memory_space> made("Kollective::test::values", std::size_t{1} << n);
  coalition::generate_values(space, "modified_normal", n, 4, made);
  const auto game = coalition::generate_game("modified_normal", n, 4);
  for (const auto method :
       {coalition::Method::dp, coalition::Method::idp, coalition::Method::ip, coalition::Method::automatic}) {
    for (const auto precision : {Precision::float64, Precision::float32}) {
      if (precision == Precision::float32 && method != coalition::Method::idp) continue;
      coalition::Options options{method};
      options.precision = precision;
      const auto resident = coalition::Impl::solve_resident(space, made, options, nullptr);
      const auto from_host = coalition::solve(space, game, options);
      EXPECT_EQ(resident.value, from_host.value) << coalition::to_string(method);
      EXPECT_EQ(resident.structure, from_host.structure) << coalition::to_string(method);
    }
  }
  Kokkos::deep_copy(space, Kokkos::subview(made, 77), std::numeric_limits<double>::quiet_NaN());
  const std::string message = error_of([&] { coalition::Impl::solve_resident(space, made, {}, nullptr); });
  EXPECT_NE(message.find("coalition::solve: v(77) = nan is not finite"), std::string::npos) << message;
}

/// A coalitional skill game (Bachrach and Rosenschein, AAMAS 2008): agent i holds the skills
/// skills[i]; a coalition earns the reward of every task whose skills its members cover together,
/// and pays `cost` per member. A formula, not a table: what coalition::solve takes as a function.
struct SkillGame {
  static constexpr int max_agents = 16, max_tasks = 6;
  std::uint32_t skills[max_agents] = {};
  std::uint32_t task_skills[max_tasks] = {};
  double reward[max_tasks] = {};
  double cost = 0;
  KOKKOS_FUNCTION double operator()(std::uint64_t coalition) const {
    std::uint32_t covered = 0;
    int members = 0;
    for (int i = 0; i < max_agents; ++i) {
      if (coalition >> i & 1) {
        covered |= skills[i];
        ++members;
      }
    }
    double value = -cost * members;
    for (int t = 0; t < max_tasks; ++t) value += (task_skills[t] & ~covered) == 0 ? reward[t] : 0.0;
    return value;
  }
};

TEST(TEST_CATEGORY, coalition_value_function_solves_as_its_table) {
  // Twelve agents with two of eight skills each, six tasks needing two to four skills.
  SkillGame game;
  for (int i = 0; i < 12; ++i) game.skills[i] = (1u << (i % 8)) | (1u << ((3 * i + 1) % 8));
  const std::uint32_t tasks[] = {0x03, 0x0c, 0x30, 0xc0, 0x0f, 0x5a};
  const double rewards[] = {5, 7, 6, 9, 14, 12};
  for (int t = 0; t < 6; ++t) {
    game.task_skills[t] = tasks[t];
    game.reward[t] = rewards[t];
  }
  game.cost = 1.5;
  TEST_EXECSPACE space;
  coalition::Game table = coalition::empty_game(12);
  for (std::uint64_t mask = 1; mask < table.values.size(); ++mask) table.values[mask] = game(mask);
  for (const auto method : {coalition::Method::idp, coalition::Method::ip, coalition::Method::automatic}) {
    const auto from_function = coalition::solve(space, 12, game, {method});
    const auto from_table = coalition::solve(space, table, {method});
    EXPECT_EQ(from_function.value, from_table.value) << coalition::to_string(method);
    EXPECT_EQ(from_function.value, coalition::brute_force(table).value) << coalition::to_string(method);
  }
  const auto made = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), coalition::value_table(space, 12, game));
  for (std::uint64_t mask = 0; mask < table.values.size(); ++mask) ASSERT_EQ(made(mask), table.values[mask]) << mask;
}

TEST(TEST_CATEGORY, coalition_dp_equals_serial_dp_bit_for_bit) {
  // The blocked device DP evaluates the same splits as the plain serial DP, so the double optimum
  // is identical; IDP finds the same optimum through fewer splits (equal up to rounding).
  TEST_EXECSPACE space;
  for (int n = 11; n <= 16; ++n) {
    for (const auto& game :
         {coalition::uniform_game(n, 100 + n), mixed_sign_game(n, 200 + n), coalition::idpg_benchmark(n, 99)}) {
      const double reference = coalition::serial_dp(game);
      const auto dp = coalition::solve(space, game, {coalition::Method::dp});
      const auto idp = coalition::solve(space, game, {coalition::Method::idp});
      EXPECT_EQ(dp.value, reference) << "n=" << n;
      EXPECT_NEAR(idp.value, reference, 1e-12 * std::max(1.0, std::fabs(reference))) << "n=" << n;
      for (const auto* result : {&dp, &idp}) {
        coalition::check_partition(n, result->structure);
        EXPECT_NEAR(coalition::structure_value(game, result->structure), reference,
                    1e-9 * std::max(1.0, std::fabs(reference)))  // relative: the releases' values are ~1e9
            << "n=" << n << " " << result->method;
      }
      EXPECT_EQ(dp.splits, coalition::split_count(n, coalition::Method::dp));
      EXPECT_LT(idp.splits, dp.splits);
      EXPECT_GE(idp.splits, coalition::split_count(n, coalition::Method::idp));
    }
  }
}

TEST(TEST_CATEGORY, coalition_ip_matches_the_serial_dp) {
  // Every distribution at n = 15, values of both signs, and IDP^G's: IP's optimum is the DP's up
  // to rounding (other sums in another order), and its structure adds up to it.
  TEST_EXECSPACE space;
  const auto games = every_distribution(15, 7);
  for (const auto& [what, game] : games) {
    const double reference = coalition::serial_dp(game);
    const auto ip = coalition::solve(space, game, {coalition::Method::ip});
    const double tolerance = 1e-12 * std::max(1.0, std::fabs(reference));
    EXPECT_NEAR(ip.value, reference, tolerance) << what;
    coalition::check_partition(game.agents, ip.structure);
    EXPECT_NEAR(coalition::structure_value(game, ip.structure), ip.value, tolerance) << what;
    EXPECT_EQ(ip.method, "ip");
    EXPECT_GT(ip.nodes, 0) << what;
    EXPECT_GT(ip.ip_start_s, 0) << what;
    EXPECT_GE(ip.ip_s, ip.ip_start_s) << what;
    // auto: IP, or IDP once IP has had its share of IDP's time; the same optimum either way.
    const auto automatic = coalition::solve(space, game, {coalition::Method::automatic});
    EXPECT_NEAR(automatic.value, reference, tolerance) << what;
    EXPECT_TRUE(automatic.method == "ip" || automatic.method == "idp") << automatic.method;
    EXPECT_GT(automatic.ip_s, 0) << what;  // IP ran first, whichever method ended the solve
    coalition::check_partition(game.agents, automatic.structure);
    EXPECT_NEAR(coalition::structure_value(game, automatic.structure), automatic.value, tolerance) << what;
  }
}

TEST(TEST_CATEGORY, coalition_ip_with_tiny_frames_matches_the_serial_dp) {
  // Budgets of a few coalitions per thread and few frames per launch: every branch is pushed back
  // and split many times over, and nothing may be lost on the way.
  TEST_EXECSPACE space;
  const auto games = every_distribution(11, 3);
  for (const auto& [what, game] : games) {
    const double reference = coalition::serial_dp(game);
    const double tolerance = 1e-12 * std::max(1.0, std::fabs(reference));
    // Tiny launches, then the DP start of no size (every branch searched to its end) and of every
    // size (each branch closed at once by the best partition of its agents).
    for (const coalition::Impl::IpLaunch launch :
         {coalition::Impl::IpLaunch{1, 1}, coalition::Impl::IpLaunch{2, 3}, coalition::Impl::IpLaunch{40, 64},
          coalition::Impl::IpLaunch{0, 0, 1}, coalition::Impl::IpLaunch{0, 0, game.agents}}) {
      const std::string label =
          what + ", budget " + std::to_string(launch.budget) + ", DP start " + std::to_string(launch.dp_size);
      const auto ip = coalition::Impl::solve_ip(space, coalition::Values(game), {coalition::Method::ip}, launch);
      EXPECT_TRUE(ip.exact) << label;
      EXPECT_NEAR(ip.value, reference, tolerance) << label;
      coalition::check_partition(game.agents, ip.structure);
      EXPECT_NEAR(coalition::structure_value(game, ip.structure), ip.value, tolerance) << label;
    }
  }
}

TEST(TEST_CATEGORY, coalition_ip_and_auto_match_idp_on_every_distribution_at_18) {
  // Past the serial references' sizes: IP alone (its search ending, on the agent-based games after
  // about 1e8 nodes) and auto (IP, then IDP where IP's share runs out) against IDP, seed 5.
  TEST_EXECSPACE space;
  for (const auto& model : coalition::value_models()) {
    const auto game = coalition::generate_game(model, 18, 5);
    const double reference = coalition::solve(space, game, {coalition::Method::idp}).value;
    const double tolerance = 1e-12 * std::max(1.0, std::fabs(reference));
    for (const auto method : {coalition::Method::ip, coalition::Method::automatic}) {
      const auto result = coalition::solve(space, game, {method});
      const std::string label = model + " " + coalition::to_string(method) + " (" + result.method + ")";
      EXPECT_TRUE(result.exact) << label;
      EXPECT_NEAR(result.value, reference, tolerance) << label;
      coalition::check_partition(game.agents, result.structure);
      EXPECT_NEAR(coalition::structure_value(game, result.structure), result.value, tolerance) << label;
    }
  }
}

/// A result stopped at its time limit (or exact): its structure is a partition worth its value, and
/// the value and the upper bound enclose the optimum.
void expect_bounds_enclose(const coalition::Game& game, const coalition::Result& result, double optimum,
                           const std::string& what) {
  const double tolerance = 1e-12 * std::max(1.0, std::fabs(optimum));
  coalition::check_partition(game.agents, result.structure);
  EXPECT_NEAR(coalition::structure_value(game, result.structure), result.value, tolerance) << what;
  EXPECT_LE(result.value, optimum + tolerance) << what;
  EXPECT_GE(result.upper_bound, optimum - tolerance) << what;
  if (result.exact) EXPECT_EQ(result.upper_bound, result.value) << what;
}

TEST(TEST_CATEGORY, coalition_ip_stopped_by_its_time_limit_bounds_the_optimum) {
  // A time limit passed at the first launch: the best structure found and the bound of the
  // branches left enclose the serial DP's optimum (small launches leave branches).
  TEST_EXECSPACE space;
  coalition::Options options;
  options.method = coalition::Method::ip;
  options.time_limit = 1e-9;
  int stopped = 0;
  const auto games = every_distribution(12, 5);
  for (const auto& [what, game] : games) {
    const auto ip = coalition::Impl::solve_ip(space, coalition::Values(game), options, {4, 2});
    stopped += !ip.exact;
    expect_bounds_enclose(game, ip, coalition::serial_dp(game), what);
  }
  EXPECT_GT(stopped, 0) << "no game was stopped by the time limit";
  options.method = coalition::Method::idp;  // the other methods cannot stop early
  EXPECT_ANY_THROW(coalition::solve(space, games.front().second, options));
}

TEST(TEST_CATEGORY, coalition_auto_stopped_by_its_time_limit_bounds_the_optimum) {
  // A limit IDP cannot keep: IP alone until it, then its best structure and bound (or the optimum,
  // where one launch ends the game); a generous one: the optimum, proven.
  TEST_EXECSPACE space;
  const auto game = coalition::generate_game("agent_uniform", 17, 2);
  const double optimum = coalition::solve(space, game, {coalition::Method::idp}).value;
  coalition::Options options;
  options.method = coalition::Method::automatic;
  options.time_limit = 1e-6;
  const auto stopped = coalition::solve(space, game, options);
  EXPECT_EQ(stopped.method, "ip");  // IDP not run (a launch may end the game on a large machine)
  expect_bounds_enclose(game, stopped, optimum, "auto, 1e-6 s");
  for (const double generous : {600.0, 1e12}) {  // 1e12 s: past what the clock holds, so no limit
    options.time_limit = generous;
    const auto proven = coalition::solve(space, game, options);
    EXPECT_TRUE(proven.exact) << generous;
    EXPECT_NEAR(proven.value, optimum, 1e-12 * std::fabs(optimum)) << generous;
  }
}

TEST(TEST_CATEGORY, coalition_idp_shows_auto_finished_best_partitions_after_each_layer) {
  // IDP's table after layer h, as auto's IP takes it: every coalition of at most h agents (up to
  // n / 2) holds its best partition, and no entry exceeds one. A hook that stops after the first
  // layer leaves a result not exact; one that never stops, the optimum.
  TEST_EXECSPACE space;
  using Memory = typename TEST_EXECSPACE::memory_space;
  const auto game = coalition::generate_game("agent_normal", 16, 3);
  const std::vector<double> best = coalition::serial_dp_table(game, game.agents);
  const coalition::Values values(game);
  std::vector<int> layers;
  const coalition::Impl::LayerHook<Memory> check_layer = [&](int h, const Kokkos::View<const double*, Memory>& table) {
    layers.push_back(h);
    const auto on_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), table);
    for (std::uint64_t c = 1; c < best.size(); ++c) {
      const double tolerance = 1e-12 * std::max(1.0, std::fabs(best[c]));
      EXPECT_LE(on_host(c), best[c] + tolerance) << "layer " << h << ", coalition " << c;
      if (Kokkos::popcount(c) <= std::min(h, game.agents / 2))
        EXPECT_NEAR(on_host(c), best[c], tolerance) << "layer " << h << ", coalition " << c;
    }
    return false;
  };
  const coalition::Options idp;
  EXPECT_NEAR((coalition::Impl::solve<double>(space, values, idp, nullptr, {}, check_layer).value), best.back(),
              1e-12 * std::fabs(best.back()));
  EXPECT_EQ(layers, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})) << "n = 16: 11 high agents, 11 layers";
  const coalition::Impl::LayerHook<Memory> stop = [](int, const auto&) { return true; };
  EXPECT_FALSE((coalition::Impl::solve<double>(space, values, idp, nullptr, {}, stop).exact));
}

/// IDP's table as the blocked engine (Coalition_Impl.hpp) computes it, written out serially: block
/// 0 by the plain DP; then layer by layer each block's high splits {Ah, Bh} (Ah holding Ch's lowest
/// agent) that IDP evaluates, by its rule written out here (parts of a and b agents of a coalition
/// of c = a + b: c = n or max(a, b) <= n - c), not read from the engine, and its local splits in
/// increasing Cl, every sum in the engine's order, so the engine's table equals it bit for bit.
inline std::vector<double> serial_blocked_idp(const coalition::Values& values) {
  using coalition::Impl::low_agents;
  const int n = values.agents, high_agents = n - low_agents;
  constexpr std::uint64_t low_block = (1u << low_agents) - 1;
  std::vector<double> f(values.v, values.v + values.count);
  for (std::uint64_t cl = 1; cl <= low_block; ++cl) {
    for (std::uint64_t al = 1; al < cl; ++al) {
      if ((al & ~cl) == 0) f[cl] = std::max(f[cl], f[al] + f[cl ^ al]);
    }
  }
  for (int h = 1; h <= high_agents; ++h) {
    for (std::uint64_t ch = 1; ch < (std::uint64_t{1} << high_agents); ++ch) {
      if (Kokkos::popcount(ch) != h) continue;
      double* block = f.data() + (ch << low_agents);
      const std::uint64_t lowest = ch & (~ch + 1), others = ch ^ lowest;
      for (std::uint64_t sub = 0; sub < others; sub = (sub - others) & others) {  // every proper subset
        const std::uint64_t ah = lowest | sub, bh = ch ^ ah;
        for (std::uint64_t cl = 0; cl <= low_block; ++cl) {
          for (std::uint64_t al = 0; al <= cl; ++al) {
            if ((al & ~cl) != 0) continue;
            const std::uint64_t bl = cl ^ al;
            const int a = Kokkos::popcount(ah) + Kokkos::popcount(al), b = Kokkos::popcount(bh) + Kokkos::popcount(bl);
            if (a + b != n && std::max(a, b) > n - (a + b)) continue;
            block[cl] = std::max(block[cl], f[(ah << low_agents) | al] + f[(bh << low_agents) | bl]);
          }
        }
      }
      for (std::uint64_t cl = 1; cl <= low_block; ++cl) {
        for (std::uint64_t al = 1; al <= cl; ++al) {
          if ((al & ~cl) == 0) block[cl] = std::max(block[cl], f[al] + block[cl ^ al]);
        }
      }
    }
  }
  return f;
}

TEST(TEST_CATEGORY, coalition_idp_table_equals_the_serial_blocked_idp_bit_for_bit) {
  // Every coalition's IDP value after each layer, against serial_blocked_idp: a split IDP should
  // evaluate but skips (or, on a GPU, an entry of a block it does not read) changes some of them.
  TEST_EXECSPACE space;
  using Memory = typename TEST_EXECSPACE::memory_space;
  for (const int n : {13, 14}) {
    for (const char* model : {"agent_normal", "normal"}) {
      const auto game = coalition::generate_game(model, n, 5);
      const coalition::Values values(game);
      const std::vector<double> expected = serial_blocked_idp(values);
      int checked = 0;
      const coalition::Impl::LayerHook<Memory> check_layer = [&](int h,
                                                                 const Kokkos::View<const double*, Memory>& table) {
        const auto on_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), table);
        for (std::uint64_t c = 1; c < expected.size(); ++c) {
          if (Kokkos::popcount(c >> coalition::Impl::low_agents) > h) continue;
          ++checked;
          if (on_host(c) == expected[c]) continue;
          ADD_FAILURE() << model << " n = " << n << ", layer " << h << ", coalition " << c << ": " << on_host(c)
                        << " against " << expected[c];
          break;
        }
        return false;
      };
      const auto result =
          coalition::Impl::solve<double>(space, values, {coalition::Method::idp}, nullptr, {}, check_layer);
      EXPECT_EQ(result.value, expected.back()) << model << " n = " << n;
      EXPECT_GT(checked, 1 << n) << model << " n = " << n;
    }
  }
}

/// auto with IDP faked: after each layer h up to `layers` it hands auto's hook a table with the
/// best partition of every coalition of at most h agents and v elsewhere (all that IP may rely
/// on), then gives up (a result not exact), as one stopped by the hook or by a time limit would;
/// `stopped_at` is the layer whose hook stopped it (0: none).
template <class Memory>
auto faked_idp(const coalition::Game& game, int layers, int& stopped_at) {
  return [&game, layers, &stopped_at](const coalition::Options&, const auto&,
                                      const coalition::Impl::LayerHook<Memory>& hook) {
    const std::vector<double> best = coalition::serial_dp_table(game, game.agents);
    stopped_at = 0;
    for (int h = 1; h <= layers && stopped_at == 0; ++h) {
      Kokkos::View<double*, Kokkos::HostSpace> host("layer table", best.size());
      for (std::uint64_t c = 0; c < best.size(); ++c) host(c) = Kokkos::popcount(c) <= h ? best[c] : game.values[c];
      if (hook(h, Kokkos::create_mirror_view_and_copy(Memory(), host))) stopped_at = h;
    }
    coalition::Result gave_up;
    gave_up.exact = false;
    return gave_up;
  };
}

TEST(TEST_CATEGORY, coalition_auto_rounds_closed_at_idp_s_finished_sizes_prove_the_optimum) {
  // IP's first share, one launch of tiny frames, cannot end agent normal at n = 16; IDP's layers
  // then hand it the best partitions of the small coalitions, and a round closed at them (no time
  // limit on the rounds) proves the optimum: IDP is stopped there and auto answers with IP's.
  TEST_EXECSPACE space;
  using Memory = typename TEST_EXECSPACE::memory_space;
  const auto game = coalition::generate_game("agent_normal", 16, 3);
  const double optimum = coalition::serial_dp(game);
  const coalition::Values values(game);
  coalition::Options options;
  options.method = coalition::Method::automatic;
  options.ip_share = 1e-12;  // the rounds decide, unlimited
  options.ip_min_s = 0;
  options.ip_round_share = 1e12;
  int stopped_at = 0;
  const coalition::Impl::IpLaunch tiny{64, 4, 3};
  const auto result =
      coalition::Impl::solve_automatic<double>(space, values, options, faked_idp<Memory>(game, 10, stopped_at), tiny);
  EXPECT_GT(stopped_at, 3) << "a round ran only past the DP start's size";
  EXPECT_LE(stopped_at, 8) << "rounds close at most n / 2 agents";
  EXPECT_TRUE(result.exact);
  EXPECT_EQ(result.method, "ip");
  EXPECT_NEAR(result.value, optimum, 1e-12 * std::fabs(optimum));
  expect_bounds_enclose(game, result, optimum, "auto ended by a round");
  // Every distribution: the search goes on from the first share's branches, closed at more agents.
  int ended_by_rounds = 0;
  for (const auto& [what, small] : every_distribution(13, 4)) {
    const auto ended = coalition::Impl::solve_automatic<double>(space, coalition::Values(small), options,
                                                                faked_idp<Memory>(small, 7, stopped_at), tiny);
    EXPECT_TRUE(ended.exact) << what;
    expect_bounds_enclose(small, ended, coalition::serial_dp(small), what + ", auto ended by a round");
    ended_by_rounds += stopped_at > 0;
  }
  EXPECT_GE(ended_by_rounds, 8) << "of 11 games, most outlast one launch of the first share";
  // In float, IDP's table is not IP's to close at (faked here as empty): no round, IP's first answer.
  const auto in_float = coalition::Impl::solve_automatic<float>(
      space, values, options,
      [&](const coalition::Options&, const auto&, const coalition::Impl::LayerHook<Memory>& hook) {
        for (int h = 1; h <= 10; ++h) EXPECT_FALSE(hook(h, Kokkos::View<const double*, Memory>()));
        coalition::Result gave_up;
        gave_up.exact = false;
        return gave_up;
      },
      tiny);
  EXPECT_FALSE(in_float.exact);
  expect_bounds_enclose(game, in_float, optimum, "auto in float, IDP stopped");
}

TEST(TEST_CATEGORY, coalition_ip_with_a_stack_that_cannot_grow_spills_to_the_host_and_matches_the_serial_dp) {
  // A stack held at its first size: the branches its launches leave past it move to the host and
  // come back once those above them are searched; none may be lost, and a search stopped by its
  // deadline counts the spilled ones in its bound.
  TEST_EXECSPACE space;
  for (const auto& [what, game] : every_distribution(11, 3)) {
    const double reference = coalition::serial_dp(game);
    const double tolerance = 1e-12 * std::max(1.0, std::fabs(reference));
    // Two frames a launch, three coalitions each: their pushes pass the stack's room at once.
    const auto ip = coalition::Impl::solve_ip(space, coalition::Values(game), {coalition::Method::ip},
                                              coalition::Impl::IpLaunch{3, 2, 0, 1});
    EXPECT_TRUE(ip.exact) << what;
    EXPECT_NEAR(ip.value, reference, tolerance) << what;
    EXPECT_NEAR(coalition::structure_value(game, ip.structure), ip.value, tolerance) << what;
  }
  const auto game = coalition::generate_game("agent_normal", 16, 3);
  coalition::Options options{coalition::Method::ip};
  options.time_limit = 0.05;
  const auto stopped =
      coalition::Impl::solve_ip(space, coalition::Values(game), options, coalition::Impl::IpLaunch{1, 1, 0, 1});
  EXPECT_FALSE(stopped.exact) << "a search of about 1e7 nodes, one branch a launch, stopped after 50 ms";
  expect_bounds_enclose(game, stopped, coalition::serial_dp(game), "IP stopped with branches on the host");
}

TEST(TEST_CATEGORY, coalition_idp_stopped_by_a_time_limit_leaves_auto_with_ip_s_bound) {
  // Rounds given no time and IDP faked to stop: auto answers with IP's best structure and bound.
  TEST_EXECSPACE space;
  using Memory = typename TEST_EXECSPACE::memory_space;
  const auto game = coalition::generate_game("agent_normal", 16, 3);
  const double optimum = coalition::serial_dp(game);
  coalition::Options options;
  options.method = coalition::Method::automatic;
  options.time_limit = 600;
  options.ip_share = 1e-12;
  options.ip_min_s = 0;
  options.ip_round_share = 0;
  int stopped_at = 0;
  const auto result = coalition::Impl::solve_automatic<double>(space, coalition::Values(game), options,
                                                               faked_idp<Memory>(game, 10, stopped_at),
                                                               coalition::Impl::IpLaunch{64, 4, 3});
  EXPECT_EQ(stopped_at, 0) << "no round ran";
  EXPECT_FALSE(result.exact);
  EXPECT_EQ(result.method, "ip");
  expect_bounds_enclose(game, result, optimum, "auto with IDP stopped");
  // A limit IDP's estimate fits in (so IP does not run alone), passed during a layer: the hook
  // stops IDP after it, and IP's answer stands.
  options.time_limit = 1;
  bool hook_stopped = false;
  const auto limited = coalition::Impl::solve_automatic<double>(
      space, coalition::Values(game), options,
      [&](const coalition::Options&, const auto&, const coalition::Impl::LayerHook<Memory>& hook) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        hook_stopped = hook(1, Kokkos::View<const double*, Memory>());
        coalition::Result gave_up;
        gave_up.exact = false;
        return gave_up;
      },
      coalition::Impl::IpLaunch{64, 4, 3});
  EXPECT_TRUE(hook_stopped) << "the limit had passed";
  EXPECT_FALSE(limited.exact);
  expect_bounds_enclose(game, limited, optimum, "auto past its time limit");
}

TEST(TEST_CATEGORY, coalition_ip_statistics_on_the_space_equal_the_serial_scan) {
  // The device's statistics (reductions per size) against the serial scan, for IP's plan.
  TEST_EXECSPACE space;
  for (const auto& game : {mixed_sign_game(12, 3), coalition::generate_game("ndcs", 13, 4)}) {
    const int n = game.agents;
    const coalition::Values values(game);
    const auto serial = coalition::scan_all(values);
    const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
        game.values.data(), game.values.size());
    Kokkos::View<double*, typename TEST_EXECSPACE::memory_space> copied("values", game.values.size());
    Kokkos::deep_copy(copied, host);
    const Kokkos::View<const double*, typename TEST_EXECSPACE::memory_space> v = copied;
    const auto binomial = subsets::binomial_table<typename TEST_EXECSPACE::memory_space>(space, n);
    const auto device = coalition::Impl::statistics_on(space, v, n, binomial);
    EXPECT_EQ(device.magnitude, serial.magnitude);
    EXPECT_EQ(device.best_pair, serial.best_pair);
    for (int size = 1; size <= n; ++size) {
      EXPECT_EQ(device.largest[size], serial.largest[size]) << "size " << size;
      EXPECT_EQ(device.count[size], serial.count[size]);
      EXPECT_NEAR(device.sum[size], serial.sum[size], 1e-12 * serial.absolute_sum[size]);
      EXPECT_NEAR(device.absolute_sum[size], serial.absolute_sum[size], 1e-12 * serial.absolute_sum[size]);
    }
  }
}

template <class Value>
void check_shared_values_upload_alike(const coalition::Game& game) {
  // auto's one copy of the values on the device fills IDP's table as the host upload does.
  using Memory = typename TEST_EXECSPACE::memory_space;
  TEST_EXECSPACE space;
  const std::size_t entries = game.values.size() + 5;  // past the values: zeros
  Kokkos::View<Value*, Memory> uploaded("uploaded", entries), shared("shared", entries);
  Kokkos::deep_copy(uploaded, Value(7));
  Kokkos::deep_copy(shared, Value(7));
  coalition::Impl::upload_values(space, coalition::Values(game), uploaded, Kokkos::View<double*, Memory>());
  coalition::Impl::upload_values(space, coalition::Values(game), shared, Kokkos::View<double*, Memory>(),
                                 coalition::Impl::values_on(space, coalition::Values(game)));
  const auto expected = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), uploaded);
  const auto found = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shared);
  for (std::size_t i = 0; i < entries; ++i) {
    ASSERT_EQ(found(i), expected(i)) << i;
    ASSERT_EQ(found(i), i < game.values.size() ? static_cast<Value>(game.values[i]) : Value(0)) << i;
  }
}

TEST(TEST_CATEGORY, coalition_values_shared_on_the_device_fill_the_table_alike) {
  const auto game = coalition::generate_game("modified_normal", 13, 5);
  check_shared_values_upload_alike<double>(game);
  check_shared_values_upload_alike<float>(game);
}

TEST(TEST_CATEGORY, coalition_idpg_published_optimum_n20) {
  // IDP^G (AAMAS 2014) benchmark values at seed 1234: optimum 11.219613 for 20 agents.
  const auto game = coalition::idpg_benchmark(20, 1234);
  TEST_EXECSPACE space;
  coalition::Options options{coalition::Method::idp};
  options.precision = Precision::float32;
  const auto result = coalition::solve(space, game, options);
  EXPECT_NEAR(result.value, 11.219613, 1e-4);
  coalition::check_partition(20, result.structure);
  EXPECT_NEAR(coalition::structure_value(game, result.structure), result.value, 1e-4);
}

TEST(TEST_CATEGORY, coalition_refuses_what_does_not_fit) {
  TEST_EXECSPACE space;
  coalition::Game game;
  game.agents = 41;
  EXPECT_NE(error_of([&] { coalition::solve(space, game); }).find("41 agents outside 1..40"), std::string::npos);
  game.agents = 5;  // no values
  EXPECT_NE(error_of([&] { coalition::solve(space, game); }).find("0 values for 5 agents"), std::string::npos);
  setenv("KOLLECTIVE_MEMORY_LIMIT", "100000000", 1);
  const double unread = 0;  // refused before any value is read
  const std::string message = error_of([&] { coalition::solve(space, coalition::Values(30, &unread)); });
  unsetenv("KOLLECTIVE_MEMORY_LIMIT");
  EXPECT_NE(message.find("the coalition value table of 30 agents needs 8.00 GiB"), std::string::npos) << message;
}

TEST(TEST_CATEGORY, coalition_value_files_read_into_the_space_equal_the_host_read) {
  // Text and binary files read batch by batch into the space's memory: the host reader's values,
  // trailing blank lines dropped, the same errors; and solved where they were read.
  TEST_EXECSPACE space;
  const auto game = coalition::generate_game("gamma", 9, 5);
  const std::string text = ::testing::TempDir() + "kollective_read_values.txt";
  const std::string binary = ::testing::TempDir() + "kollective_read_values.kcsg";
  coalition::write_rahwan_text(game, text);
  coalition::write_binary(game, binary);
  for (const auto& [path, format] : {std::pair(text, "text"), std::pair(binary, "binary")}) {
    const auto values = coalition::read_values(space, path, format);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    EXPECT_EQ(std::vector<double>(host.data(), host.data() + host.size()), coalition::read_game(path, format).values)
        << format;
    EXPECT_NEAR(coalition::solve(space, values).value, coalition::serial_dp(game), 1e-9 * coalition::serial_dp(game));
  }
  std::ofstream(text, std::ios::app) << "\n\n";
  EXPECT_EQ(coalition::read_values(space, text, "text").extent(0), game.values.size());
  std::ofstream(text, std::ios::app) << "7\n";
  EXPECT_EQ(error_of([&] { coalition::read_values(space, text, "text"); }),
            error_of([&] { coalition::read_game(text, "text"); }));
  EXPECT_NE(error_of([&] { coalition::read_values(space, text, "text"); }).find(":513: blank line"), std::string::npos);
  std::ofstream(text, std::ios::trunc) << "0\n1\n2\ninf\n";
  EXPECT_NE(error_of([&] { coalition::read_values(space, text, "text"); }).find(":4: value is not finite"),
            std::string::npos);
  std::ofstream(text, std::ios::trunc) << "0\n1\n2\n1e307\n";  // finite, but sums of 40 would not be
  EXPECT_NE(error_of([&] { coalition::read_values(space, text, "text"); }).find("v(3) = 1e+307 is too large"),
            std::string::npos);
}

}  // namespace kollective::test
