#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <utility>

#include "kollective/tests/TestHelpers.hpp"
#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"

namespace coalition = kollective::coalition;
using kollective::test::error_of;

TEST(coalition_host, split_counts_match_the_literature) {
  // Rahwan and Jennings (2008), IDP: DP = (3^n + 1)/2 - 2^n; IDP about 0.38 of DP; n = 24: DP 1.41e11, IDP 5.46e10;
  // n = 28: DP 1.14e13, IDP 4.26e12; n = 30: IDP 3.92e13.
  for (int n = 2; n <= 30; ++n) {
    EXPECT_DOUBLE_EQ(coalition::split_count(n, coalition::Method::dp), (std::pow(3.0, n) + 1) / 2 - std::pow(2.0, n))
        << n;
  }
  EXPECT_NEAR(coalition::split_count(24, coalition::Method::idp) / 5.46e10, 1.0, 0.01);
  EXPECT_NEAR(coalition::split_count(28, coalition::Method::idp) / 4.26e12, 1.0, 0.01);
  EXPECT_NEAR(coalition::split_count(30, coalition::Method::idp) / 3.92e13, 1.0, 0.01);
}

TEST(coalition_host, block_reads_name_every_entry_a_split_uses) {
  // The GPU reads only the entries of a high split's two blocks that Layer::entries_a / entries_b
  // name: every entry of an evaluated size group (|Al|, |Bl|) must be named, and only those (else
  // the reads save less); DP names them all.
  namespace impl = coalition::Impl;
  for (int n = 7; n <= 33; ++n) {
    const int high_agents = n - impl::low_agents;
    for (int h = 2; h <= high_agents; ++h) {
      for (const bool idp : {true, false}) {
        const impl::Layer layer = impl::plan_layer(n, high_agents, h, idp);
        for (int p = 1; p < h; ++p) {
          std::uint32_t used_a = 0, used_b = 0;
          for (int al = 0; al < impl::block_size; ++al) {
            for (int bl = 0; bl < impl::block_size; ++bl) {
              if ((al & bl) != 0) continue;
              const int g =
                  impl::group(Kokkos::popcount(static_cast<unsigned>(al)), Kokkos::popcount(static_cast<unsigned>(bl)));
              if ((layer.groups[p] >> g & 1) == 0) continue;
              used_a |= std::uint32_t{1} << al;
              used_b |= std::uint32_t{1} << bl;
            }
          }
          EXPECT_EQ(layer.entries_a[p], used_a) << "n " << n << ", layer " << h << ", |Ah| " << p << ", idp " << idp;
          EXPECT_EQ(layer.entries_b[p], used_b) << "n " << n << ", layer " << h << ", |Ah| " << p << ", idp " << idp;
          if (!idp) EXPECT_EQ(used_a & used_b, ~std::uint32_t{0});
        }
      }
    }
  }
}

TEST(coalition_host, brute_force_on_a_hand_example) {
  // 3 agents: v{1}=1, v{2}=2, v{1,2}=3.5, v{3}=3, v{1,3}=3, v{2,3}=6, v{1,2,3}=6.5: best {1},{2,3} = 7.
  coalition::Game game;
  game.agents = 3;
  game.values = {0, 1, 2, 3.5, 3, 3, 6, 6.5};
  const auto best = coalition::brute_force(game);
  EXPECT_DOUBLE_EQ(best.value, 7.0);
  EXPECT_EQ(best.structure, (coalition::Structure{0b001, 0b110}));
  EXPECT_EQ(coalition::format_structure(best.structure, {"a", "b", "c"}), "{a}, {b, c}");
}

TEST(coalition_host, idpg_generator_is_marsaglia_mwc) {
  const auto game = coalition::idpg_benchmark(3, 1234);
  // First draw: z = 36969*1234 + 0, w = 18000*1234 + 0, r = (z << 16) + w (mod 2^32).
  const std::uint32_t z = 36969u * 1234u, w = 18000u * 1234u;
  EXPECT_FLOAT_EQ(static_cast<float>(game.values[1]), static_cast<float>(((z << 16) + w) / 4294967296.0));
  EXPECT_EQ(game.values[0], 0.0);
}

namespace {

double mean_over_coalitions(const coalition::Game& game,
                            const std::function<double(double value, double size)>& statistic) {
  double total = 0;
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    total += statistic(game.values[mask], static_cast<double>(Kokkos::Experimental::popcount_builtin(mask)));
  }
  return total / static_cast<double>(game.values.size() - 1);
}

std::string temp_path(const std::string& name) { return ::testing::TempDir() + name; }

}  // namespace

TEST(coalition_host, every_model_is_seeded_finite_and_starts_at_zero) {
  for (const auto& model : coalition::value_models()) {
    const auto game = coalition::generate_game(model, 10, 42);
    EXPECT_EQ(game.values[0], 0.0) << model;
    EXPECT_EQ(coalition::generate_game(model, 10, 42).values, game.values) << model;
    EXPECT_NE(coalition::generate_game(model, 10, 43).values, game.values) << model;
    for (double value : game.values) EXPECT_TRUE(std::isfinite(value)) << model;
  }
  EXPECT_NE(error_of([] { coalition::generate_game("pareto", 5, 1); }).find("unknown coalition value model 'pareto'"),
            std::string::npos);
}

TEST(coalition_host, models_have_the_published_moments) {
  // Over the 4095 coalitions of 12 agents (seed fixed; tolerances about 5 standard errors), in
  // the releases' units (values are round(10^8 x)).
  auto per_agent = [](double value, double size) { return value / size; };
  auto mean = [](const std::string& model, auto statistic) {
    return mean_over_coalitions(coalition::generate_game(model, 12, 1),
                                [&](double value, double size) { return statistic(value / 1e8, size); });
  };
  EXPECT_NEAR(mean("uniform", per_agent), 0.5, 0.025);
  EXPECT_NEAR(mean("normal", per_agent), 10.0, 0.01);
  EXPECT_NEAR(mean("exponential", per_agent), 1.0, 0.08);
  EXPECT_NEAR(mean("beta", per_agent), 0.5, 0.03);
  EXPECT_NEAR(mean("gamma", per_agent), 4.0, 0.25);
  // Agent-based normal: the 12 agent means p_i ~ N(10, 0.1) themselves vary (standard error 0.03).
  EXPECT_NEAR(mean("agent_normal", per_agent), 10.0, 0.15);
  // Modified uniform: U(0, 10|C|) has mean 5|C|; the bonus U(0, 50) with probability 0.21 adds 5.25.
  EXPECT_NEAR(mean("modified_uniform", [](double v, double s) { return v - 5 * s; }), 5.25, 1.5);
  // Modified normal: |C| N(10, 0.1) plus N(25, 0.1) with probability 0.21 adds 5.25 on average.
  EXPECT_NEAR(mean("modified_normal", [](double v, double s) { return v - 10 * s; }), 5.25, 0.8);
  // NDCS: N(|C|, sqrt|C|) redrawn while <= 0, so always positive with mean about |C|.
  const auto ndcs = coalition::generate_game("ndcs", 12, 1);
  for (std::size_t mask = 1; mask < ndcs.values.size(); ++mask) ASSERT_GT(ndcs.values[mask], 0.0);
  EXPECT_NEAR(mean("ndcs", per_agent), 1.0, 0.06);
  // Agent-based uniform: each member adds U(0, 2 p_i) with p_i <= 10.
  const auto agent = coalition::generate_game("agent_uniform", 12, 1);
  for (int i = 0; i < 12; ++i) EXPECT_LE(agent.values[std::size_t{1} << i], 20e8);
  EXPECT_GE(*std::min_element(agent.values.begin(), agent.values.end()), 0.0);
  // FACS's per-size distributions.
  EXPECT_NEAR(mean("chi_square", per_agent), 1.0, 0.05);  // chi-square(s) has mean s
  EXPECT_NEAR(mean("weibull", [](double v, double s) { return v / (0.9 * s * std::tgamma(1 + 1 / s)); }), 1.0, 0.02);
  EXPECT_NEAR(mean("f",
                   [](double v, double s) {  // F(1, s + 1) has mean d / (d - 2), finite for d > 2
                     return s >= 6 ? v / ((s + 1) / (s - 1)) : 1.0;
                   }),
              1.0, 0.15);
  EXPECT_NEAR(mean("cauchy", [](double v, double s) { return v > 10 * s ? 1.0 : 0.0; }), 0.5, 0.04);  // median 10 s
  EXPECT_NEAR(mean("student_t", [](double v, double) { return v > 0 ? 1.0 : 0.0; }), 0.5, 0.04);      // symmetric
  EXPECT_NEAR(mean("zipf",
                   [](double v, double s) {  // s E[K] + 25, P(K = k) proportional to k^-0.1
                     double weights = 0, first_moment = 0;
                     for (int k = 1; k <= s; ++k) {
                       weights += std::pow(k, -0.1);
                       first_moment += k * std::pow(k, -0.1);
                     }
                     return v - s * first_moment / weights;
                   }),
              25.0, 1.5);
  EXPECT_NEAR(mean("pascal", [](double v, double s) { return (v - 25) / (9 * s * s); }), 1.0, 0.03);  // s r(1-p)/p
}

TEST(coalition_host, values_are_the_same_bit_for_bit_on_every_host_backend) {
  for (const auto& model : coalition::value_models()) {
    const auto game = coalition::generate_game(model, 13, 5);  // the host's threads
    Kokkos::View<double*, Kokkos::HostSpace> serial("serial", game.values.size());
    coalition::generate_values(Kokkos::Serial(), model, 13, 5, serial);
    for (std::size_t mask = 0; mask < game.values.size(); ++mask) {
      ASSERT_EQ(serial(mask), game.values[mask]) << model << " v(" << mask << ")";
      if (model != "idpg") {  // IDP^G's are floats in [0, 1)
        ASSERT_EQ(game.values[mask], std::floor(game.values[mask])) << model << ": the releases' values are integers";
      }
    }
  }
  for (const std::uint32_t seed : {0u, 1234u, 1179647999u, 2359295998u, 2422800383u, 4294967295u}) {
    // IDP^G's sequence jumped ahead block by block is the sequence; the seeds include those that are
    // 0 modulo a multiply-with-carry modulus (18000 * 2^16 - 1 and its double, 36969 * 2^16 - 1)
    const auto sequential = coalition::idpg_benchmark(14, seed);
    EXPECT_EQ(coalition::generate_game("idpg", 14, seed).values, sequential.values) << seed;
  }
  Kokkos::View<double*, Kokkos::HostSpace> wrong("wrong", 100);
  EXPECT_NE(error_of([&] {
              coalition::generate_values(Kokkos::Serial(), "uniform", 7, 1, wrong);
            }).find("100 entries for the 2^7 coalitions of 7 agents"),
            std::string::npos);
}

/// The bytes of a file, and a file of bytes.
std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(coalition_host, binary_format_round_trips_and_refuses_damage) {
  const auto game = coalition::generate_game("normal", 6, 5);
  const std::string path = temp_path("kollective_game.kcsg");
  coalition::write_binary(game, path);
  EXPECT_EQ(coalition::read_binary(path).values, game.values);
  coalition::write_binary(game, path, true);
  const auto narrow = coalition::read_binary(path);
  for (std::size_t mask = 0; mask < game.values.size(); ++mask)
    EXPECT_EQ(narrow.values[mask], static_cast<float>(game.values[mask]));

  auto damaged = [&](const std::function<void(std::string&)>& damage) {
    coalition::write_binary(game, path);
    std::string bytes = file_bytes(path);
    damage(bytes);
    write_bytes(path, bytes);
    return error_of([&] { coalition::read_binary(path); });
  };
  EXPECT_NE(damaged([](std::string& b) { b.resize(b.size() - 100); }).find("(truncated)"), std::string::npos);
  EXPECT_NE(damaged([](std::string& b) { b += "x"; }).find("(trailing data)"), std::string::npos);
  EXPECT_NE(damaged([](std::string& b) { b[40] ^= 1; }).find("checksum mismatch"), std::string::npos);
  EXPECT_NE(damaged([](std::string& b) { b[0] = 'X'; }).find("not a Kollective binary coalition file"),
            std::string::npos);
  EXPECT_NE(damaged([](std::string& b) { b[8] = 7; }).find("7 agents with 8-byte values need"), std::string::npos);
  EXPECT_NE(damaged([](std::string& b) { b[12] = 2; }).find("2-byte values"), std::string::npos);
  EXPECT_NE(damaged([](std::string& b) { b[8] = 50; }).find("50 agents; 1..40"), std::string::npos);
}

TEST(coalition_host, binary_checksum_groups_name_the_corrupt_values) {
  // 512 values in groups of 5 (the last of 2): each group checked on its own, by the host threads.
  const auto game = coalition::generate_game("gamma", 9, 3);
  const std::string path = temp_path("kollective_groups.kcsg");
  for (const bool single : {false, true}) {
    coalition::Impl::write_binary(game, path, single, 5);
    const std::string bytes = file_bytes(path);
    const std::size_t width = single ? 4 : 8;
    ASSERT_EQ(bytes.size(), 24 + 512 * width + 103 * 8);
    const auto read = coalition::read_binary(path).values;
    for (std::size_t mask = 0; mask < 512; ++mask)
      EXPECT_EQ(read[mask], single ? static_cast<double>(static_cast<float>(game.values[mask])) : game.values[mask]);
    auto error_with = [&](std::size_t byte) {
      std::string damaged = bytes;
      damaged[byte] ^= 0x10;
      write_bytes(path, damaged);
      return error_of([&] { coalition::read_binary(path); });
    };
    EXPECT_NE(error_with(24 + 37 * width).find("checksum mismatch in values 35 to 39"), std::string::npos);
    EXPECT_NE(error_with(24 + 511 * width).find("checksum mismatch in values 510 to 511"), std::string::npos);
    EXPECT_NE(error_with(24 + 512 * width + 7 * 8).find("checksum mismatch in values 35 to 39"), std::string::npos);
    EXPECT_NE(error_with(24 + 3).find("checksum mismatch in values 0 to 4"), std::string::npos);
  }
  std::string bytes = file_bytes(path);
  for (const auto& [groups, why] : {std::pair<std::uint64_t, std::string>(0, "header says 0 values per checksum"),
                                    std::pair<std::uint64_t, std::string>(std::uint64_t{1} << 27, "1..67108864")}) {
    std::memcpy(&bytes[16], &groups, 8);
    write_bytes(path, bytes);
    EXPECT_NE(error_of([&] { coalition::read_binary(path); }).find(why), std::string::npos) << why;
  }
  write_bytes(path, bytes.substr(0, 20));
  EXPECT_NE(error_of([&] { coalition::read_binary(path); }).find("file ends inside the header (values per checksum)"),
            std::string::npos);
}

TEST(coalition_host, binary_version_1_files_are_still_read) {
  // "KLCSG\0v1", n, width, the values and one FNV-1a checksum of all their bytes (written here by hand).
  const auto game = coalition::generate_game("uniform", 4, 1);
  std::string bytes("KLCSG\0v1", 8);
  const std::uint32_t agents = 4, width = 8;
  bytes.append(reinterpret_cast<const char*>(&agents), 4).append(reinterpret_cast<const char*>(&width), 4);
  bytes.append(reinterpret_cast<const char*>(game.values.data()), 16 * 8);
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 16; i < bytes.size(); ++i)
    hash = (hash ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ull;
  bytes.append(reinterpret_cast<const char*>(&hash), 8);
  const std::string path = temp_path("kollective_v1.kcsg");
  write_bytes(path, bytes);
  EXPECT_EQ(coalition::read_binary(path).values, game.values);
  bytes[16 + 8 * 5] ^= 1;
  write_bytes(path, bytes);
  EXPECT_NE(error_of([&] { coalition::read_binary(path); }).find("checksum mismatch (the values are corrupt)"),
            std::string::npos);
}

TEST(coalition_host, sparse_bids_densify_to_a_winner_determination) {
  const std::string path = temp_path("kollective_auction.bids");
  std::ofstream(path) << "# three items\nitems 3\n5 1 2\n2 3\n6 2 3   # the best pair\n3 1\n4 2 3\n";
  const auto game = coalition::read_bids(path);
  EXPECT_EQ(game.values, (std::vector<double>{0, 3, 0, 5, 2, 0, 6, 0}));  // the best bid per bundle, 0 elsewhere
  const auto best = coalition::brute_force(game);
  EXPECT_DOUBLE_EQ(best.value, 9.0);  // {1} for 3 and {2, 3} for 6 beat {1, 2} for 5 and {3} for 2
  EXPECT_EQ(best.structure, (coalition::Structure{0b001, 0b110}));

  auto error_for = [&](const std::string& text) {
    std::ofstream(path, std::ios::trunc) << text;
    return error_of([&] { coalition::read_bids(path); });
  };
  EXPECT_NE(error_for("5 1 2\n").find(":1: the first line must be 'items N'"), std::string::npos);
  EXPECT_NE(error_for("items 3\n5 1 4\n").find(":2: item '4' is not in 1..3"), std::string::npos);
  EXPECT_NE(error_for("items 3\n5 2 2\n").find(":2: item 2 appears twice"), std::string::npos);
  EXPECT_NE(error_for("items 3\n-1 2\n").find(":2: price '-1' is not a finite number >= 0"), std::string::npos);
  EXPECT_NE(error_for("items 3\nnan 2\n").find("is not a finite number"), std::string::npos);
  EXPECT_NE(error_for("items 3\n7\n").find(":2: a bid needs at least one item"), std::string::npos);
  EXPECT_NE(error_for("# nothing\n").find("no 'items N' line"), std::string::npos);
}

namespace {

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

/// A string literal's bytes, NULs inside included.
template <std::size_t N>
std::string with_nul(const char (&text)[N]) {
  return std::string(text, N - 1);
}

std::string with_crlf_and_bom(const std::string& text) {
  std::string windows = "\xEF\xBB\xBF";
  for (char c : text) windows += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return windows;
}

}  // namespace

TEST(coalition_host, text_values_are_strict_decimals) {
  const auto game = coalition::read_rahwan_text(write_file("kollective_text.txt", "0\n1.5\n2\n-3e1\n"));
  EXPECT_EQ(game.agents, 2);
  EXPECT_EQ(game.values, (std::vector<double>{0, 1.5, 2, -30}));
  const auto windows =
      coalition::read_rahwan_text(write_file("kollective_text.txt", with_crlf_and_bom("0\n1.5\n2\n-3e1\n")));
  EXPECT_EQ(windows.values, game.values);
  for (const char* bad : {"inf", "-inf", "nan", "1e999"}) {
    const std::string message = error_of(
        [&] { coalition::read_rahwan_text(write_file("kollective_text.txt", std::string("0\n") + bad + "\n")); });
    EXPECT_NE(message.find(std::string("kollective_text.txt:2: value is not finite ('") + bad + "')"),
              std::string::npos)
        << bad << ": " << message;
  }
  for (const char* bad : {"0x1p3", "0x10", "2abc", "1 2", "1,5"}) {
    const std::string message = error_of(
        [&] { coalition::read_rahwan_text(write_file("kollective_text.txt", std::string("0\n") + bad + "\n")); });
    EXPECT_NE(message.find(std::string("kollective_text.txt:2: '") + bad + "' is not a finite decimal number"),
              std::string::npos)
        << bad << ": " << message;
  }
  // The line number survives a BOM and CRLF line ends.
  EXPECT_NE(error_of([&] {
              coalition::read_rahwan_text(write_file("kollective_text.txt", with_crlf_and_bom("0\n1\n2\nnan\n")));
            }).find("kollective_text.txt:4: value is not finite ('nan')"),
            std::string::npos);
  // Line x holds v(x - 1): a blank line inside the values would shift them; blank lines at the end are fine.
  EXPECT_NE(error_of([&] {
              coalition::read_rahwan_text(write_file("kollective_text.txt", "0\n1\n\n2\n4\n"));
            }).find("kollective_text.txt:3: blank line: line x holds v(x - 1)"),
            std::string::npos);
  EXPECT_EQ(coalition::read_rahwan_text(write_file("kollective_text.txt", "0\n1\n2\n4\n\n\n")).values.size(), 4u);
  // Sums of up to 40 values must stay finite.
  EXPECT_NE(error_of([&] {
              coalition::read_rahwan_text(write_file("kollective_text.txt", "0\n1.7e308\n1.7e308\n0\n"));
            }).find("kollective_text.txt: v(1) = 1.7e+308 is too large (sums of up to 40 values must stay finite"),
            std::string::npos);
  EXPECT_NE(error_of([&] { coalition::read_rahwan_text(write_file("kollective_text.txt", "")); }).find("0 values"),
            std::string::npos);
}

TEST(coalition_host, text_values_read_in_ranges_equal_a_whole_read) {
  // The file shared out in ranges of 1 to 64 bytes, so that lines, CRLF pairs and the BOM straddle
  // ranges: the same values as one range, and the same first error, at the same line.
  const auto game = coalition::generate_game("normal", 6, 3);
  std::string text;
  for (double value : game.values) text += std::to_string(value) + "\n";
  const auto read_both = [&](const std::string& contents) {
    const std::string path = write_file("kollective_ranges.txt", contents);
    std::string whole_error, ranged_error;
    std::vector<double> whole, ranged;
    for (std::int64_t bytes : {1, 2, 3, 7, 64}) {
      try {
        ranged = coalition::Impl::read_value_file(path, "text", bytes).values;
        ranged_error.clear();
      } catch (const std::exception& error) {
        ranged_error = error.what();
      }
      try {
        whole = coalition::read_rahwan_text(path).values;
        whole_error.clear();
      } catch (const std::exception& error) {
        whole_error = error.what();
      }
      EXPECT_EQ(ranged, whole) << bytes << "-byte ranges";
      EXPECT_EQ(ranged_error, whole_error) << bytes << "-byte ranges";
    }
    return whole_error;
  };
  EXPECT_EQ(read_both(text), "");
  EXPECT_EQ(read_both(with_crlf_and_bom(text) + "\r\n\n"), "");
  EXPECT_EQ(read_both(text.substr(0, text.size() - 1)), "");  // no newline after the last value
  std::string bad = text;
  bad.replace(bad.find('\n', 200) + 1, 0, "12x\n");  // a line more: also the wrong count
  EXPECT_NE(read_both(bad).find("is not a finite decimal number"), std::string::npos);
  std::string blank = text;
  blank.replace(blank.find('\n', 100) + 1, 0, " \n\n");
  EXPECT_NE(read_both(blank).find("blank line"), std::string::npos);
  blank.replace(blank.find('\n', 300) + 1, 0, "nan\n");  // after the blank lines: the blank is reported
  EXPECT_NE(read_both(blank).find("blank line"), std::string::npos);
  EXPECT_NE(read_both("0\n1\n2\n").find("3 values"), std::string::npos);
  // A line that cannot be read is reported where a line-by-line read stops: before a blank line's
  // report when it is the first line after it, after an earlier bad value.
  EXPECT_NE(read_both(with_nul("0\n\n\0\n")).find("kollective_ranges.txt:3: a NUL byte"), std::string::npos);
  EXPECT_NE(read_both(with_nul("0\nabc\n1\0\n")).find("kollective_ranges.txt:2: 'abc'"), std::string::npos);
  EXPECT_NE(read_both(with_nul("0\n\n7\n1\0\n")).find("kollective_ranges.txt:2: blank line"), std::string::npos);
  EXPECT_NE(read_both(with_nul("KLCSG\0v1\n")).find("kollective_ranges.txt:1: a NUL byte"), std::string::npos);
  EXPECT_NE(read_both("\n\n").find("0 values"), std::string::npos);
}

TEST(coalition_host, value_files_read_in_small_batches_equal_a_whole_read) {
  // ValueFileReader batch by batch (as read_values copies each to the device): the same values.
  const auto game = coalition::generate_game("weibull", 9, 2);
  const std::string text = temp_path("kollective_batches.txt"), binary = temp_path("kollective_batches.kcsg");
  coalition::write_rahwan_text(game, text);
  coalition::Impl::write_binary(game, binary, false, 16);
  for (const auto& [path, format] : {std::pair(text, "text"), std::pair(binary, "binary")}) {
    coalition::Impl::ValueFileReader reader(path, format, 256);
    const std::int64_t capacity = std::max<std::int64_t>(reader.batch_limit(), 37);
    std::vector<double> values, batch(static_cast<std::size_t>(capacity));
    int batches = 0;
    for (std::int64_t got = 0; (got = reader.read(batch.data(), capacity)) > 0; ++batches)
      values.insert(values.end(), batch.begin(), batch.begin() + got);
    EXPECT_EQ(reader.finish(values.at(0)), 9) << format;
    EXPECT_GT(batches, 5) << format;
    EXPECT_EQ(values, coalition::read_game(path, format).values) << format;
  }
}

TEST(coalition_host, readers_say_a_folder_is_not_a_file) {
  const std::string folder = testing::TempDir();
  for (const auto& read : std::vector<std::function<void()>>{[&] { coalition::read_rahwan_text(folder); },
                                                             [&] { coalition::read_binary(folder); },
                                                             [&] { coalition::read_bids(folder); }}) {
    EXPECT_NE(error_of(read).find("is a folder, not a file"), std::string::npos) << error_of(read);
  }
}

TEST(coalition_host, bids_are_strict_numbers) {
  const std::string plain = "items 3\n5 1 2\n2.5 3 # a comment\n";
  const auto game = coalition::read_bids(write_file("kollective_strict.bids", plain));
  EXPECT_EQ(game.values, (std::vector<double>{0, 0, 0, 5, 2.5, 0, 0, 0}));
  EXPECT_EQ(coalition::read_bids(write_file("kollective_strict.bids", with_crlf_and_bom(plain))).values, game.values);
  auto error_for = [&](const std::string& text) {
    return error_of([&] { coalition::read_bids(write_file("kollective_strict.bids", text)); });
  };
  for (const char* first : {"items 2.5", "items 3 4", "items 0", "items 41", "items 99999999999999999999", "items: 3",
                            "items 0x3", "items"}) {
    EXPECT_NE(error_for(std::string(first) + "\n1 1\n")
                  .find(std::string(":1: the first line must be 'items N' with N in 1..40, got '") + first + "'"),
              std::string::npos)
        << first << ": " << error_for(std::string(first) + "\n1 1\n");
  }
  for (const char* price : {"0x1p3", "inf", "nan", "1e999", "5abc", "-0.5"}) {
    EXPECT_NE(error_for(std::string("items 3\n") + price + " 1\n")
                  .find(std::string(":2: price '") + price + "' is not a finite number >= 0"),
              std::string::npos)
        << price;
  }
  for (const char* item : {"2.5", "0", "+1", "0x1", "99999999999999999999", "-1"}) {
    EXPECT_NE(
        error_for(std::string("items 3\n5 ") + item + "\n").find(std::string(":2: item '") + item + "' is not in 1..3"),
        std::string::npos)
        << item;
  }
  EXPECT_NE(error_for("items 3\r\n5 1\r\n5 9\r\n").find("kollective_strict.bids:3: item '9' is not in 1..3"),
            std::string::npos);
}

// verify's shape (input, options, result): brute force names itself where it applies, "" past
// its size, and a wrong optimum fails.
TEST(coalition_verify, names_brute_force_and_refuses_a_wrong_optimum) {
  const coalition::Game game = coalition::uniform_game(8, 5);
  coalition::Result result;
  const auto brute = coalition::brute_force(game);
  result.value = brute.value;
  result.structure = brute.structure;
  result.exact = true;
  EXPECT_EQ(coalition::verify(game, {}, result), "brute force");
  result.value += 1;
  EXPECT_NE(error_of([&] { coalition::verify(game, {}, result); }).find("differs from brute force"), std::string::npos);
  const coalition::Game larger = coalition::uniform_game(coalition::brute_force_max_agents + 1, 5);
  EXPECT_EQ(coalition::verify(larger, {}, result), "");
}
