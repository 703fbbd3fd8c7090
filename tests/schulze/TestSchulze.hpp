// Schulze on the device against the serial reference, bit for bit (included once per backend).
#include <gtest/gtest.h>

#include <algorithm>

#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/algorithms/schulze/SchulzeReference.hpp"
#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace kollective::test {

template <class ExecSpace>
schulze::Result solve_on_device(const preferences::PairwiseCounts& counts, schulze::LinkRule rule,
                                schulze::StrengthBits bits) {
  ExecSpace space;
  schulze::Options options;
  options.rule = rule;
  options.strength_bits = bits;
  options.keep_paths = true;
  return schulze::solve(space, preferences::to_device(space, counts), options);
}

void expect_same(const schulze::Result& device, const schulze::Result& reference, const std::string& what) {
  EXPECT_EQ(device.winners, reference.winners) << what;
  EXPECT_EQ(device.beaten, reference.beaten) << what;
  EXPECT_EQ(device.ranking, reference.ranking) << what;
  EXPECT_EQ(device.paths, reference.paths) << what;
}

template <class ExecSpace>
void check_random_profiles() {
  // Sizes around tile boundaries; many voters so strengths exceed 16 bits in some cases.
  for (int n : {1, 2, 5, 63, 64, 65, 130, 200}) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const int max_count = seed == 1 ? 5 : 40000;
      const auto counts = preferences::pairwise_reference(random_weak_profile(n, 3 * n + 5, seed, max_count));
      for (auto rule : {schulze::LinkRule::winning_votes, schulze::LinkRule::margin}) {
        const auto reference = schulze::solve_reference(counts, rule);
        const std::string what =
            "n=" + std::to_string(n) + " seed=" + std::to_string(seed) + " rule=" + schulze::to_string(rule);
        const auto automatic = solve_on_device<ExecSpace>(counts, rule, schulze::StrengthBits::automatic);
        expect_same(automatic, reference, what + " auto");
        expect_same(solve_on_device<ExecSpace>(counts, rule, schulze::StrengthBits::bits32), reference,
                    what + " 32-bit");
        // The largest path strength is the largest link strength: it decides whether 16 bits fit.
        const bool fits16 =
            reference.paths.empty() || *std::max_element(reference.paths.begin(), reference.paths.end()) <= 0xffffu;
        EXPECT_EQ(automatic.strength_bits, fits16 && !runs_on_host<ExecSpace> ? 16 : 32) << what;
        if (fits16) {
          expect_same(solve_on_device<ExecSpace>(counts, rule, schulze::StrengthBits::bits16), reference,
                      what + " 16-bit");
        }
      }
    }
  }
}

template <class ExecSpace>
void check_random_tournament(int n) {
  ExecSpace space;
  const auto doubled = preferences::random_pairwise(space, n, 50000, 3);  // strengths need 32 bits
  const auto counts = preferences::to_host(doubled, preferences::numbered_names(n));
  schulze::Options options;
  options.keep_paths = true;
  const auto device = schulze::solve(space, doubled, options);
  EXPECT_EQ(device.strength_bits, 32);
  expect_same(device, schulze::solve_reference(counts, options.rule), "tournament n=" + std::to_string(n));
}

template <class ExecSpace>
void check_bundled_examples() {
  auto load = [](const char* file) {
    return preferences::pairwise_reference(preferences::read_preflib(std::string(KOLLECTIVE_TEST_DATA) + "/" + file));
  };
  const auto auto_bits = schulze::StrengthBits::automatic;
  const auto wv = schulze::LinkRule::winning_votes;
  EXPECT_EQ(solve_on_device<ExecSpace>(load("languages_100.soc"), wv, auto_bits).winners, (std::vector<int>{1}));
  const auto before = solve_on_device<ExecSpace>(load("participation_10.soc"), wv, auto_bits);
  EXPECT_EQ(before.winners, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(before.ranking.front(), (std::vector<int>{1}));  // Java first by candidates beaten
  const auto after = solve_on_device<ExecSpace>(load("participation_11.soc"), wv, auto_bits);
  EXPECT_EQ(after.winners, (std::vector<int>{0, 1}));
  EXPECT_EQ(after.ranking.front(), (std::vector<int>{0}));  // Python, who beats two
  const auto wikipedia = load("wikipedia_45.soc");
  expect_same(solve_on_device<ExecSpace>(wikipedia, wv, auto_bits), schulze::solve_reference(wikipedia, wv),
              "wikipedia");
}

TEST(TEST_CATEGORY, schulze_matches_reference_on_random_profiles) { check_random_profiles<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, schulze_matches_reference_on_32bit_tournaments) {
  for (int n : {97, 256, 300}) check_random_tournament<TEST_EXECSPACE>(n);
}

TEST(TEST_CATEGORY, schulze_bundled_examples) { check_bundled_examples<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, schulze_16_bits_hold_a_doubled_strength_of_exactly_65535) {
  // The largest doubled count 16 bits hold is a strength like any other (no sentinel), one more is refused.
  const preferences::PairwiseCounts counts{3, {"a", "b", "c"}, {0, 65535, 7, 1, 0, 65534, 9, 2, 0}};
  for (const auto rule : {schulze::LinkRule::winning_votes, schulze::LinkRule::margin}) {
    const auto result = solve_on_device<TEST_EXECSPACE>(counts, rule, schulze::StrengthBits::bits16);
    EXPECT_EQ(result.strength_bits, 16);
    expect_same(result, schulze::solve_reference(counts, rule), "65535, " + std::string(schulze::to_string(rule)));
  }
  const preferences::PairwiseCounts over{2, {"a", "b"}, {0, 65536, 0, 0}};
  const std::string message = error_of(
      [&] { solve_on_device<TEST_EXECSPACE>(over, schulze::LinkRule::winning_votes, schulze::StrengthBits::bits16); });
  EXPECT_NE(message.find("doubled count 65536"), std::string::npos) << message;
}

TEST(TEST_CATEGORY, schulze_refuses_16_bits_when_strengths_do_not_fit) {
  preferences::PairwiseCounts counts{2, {"a", "b"}, {0, 200000, 2, 0}};
  const std::string message = error_of([&] {
    solve_on_device<TEST_EXECSPACE>(counts, schulze::LinkRule::winning_votes, schulze::StrengthBits::bits16);
  });
  EXPECT_NE(message.find("strength_bits 16 requested but the largest link strength is 100000"), std::string::npos)
      << message;
  EXPECT_NE(message.find("use strength_bits 32 or auto"), std::string::npos) << message;
}

}  // namespace kollective::test
