#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"
#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/KemenyReference.hpp"
#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/algorithms/schulze/SchulzeReference.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/drivers/Session.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/core/comm/ViewCollectives.hpp"
#include "kollective/tests/TestHelpers.hpp"

// Run under `mpirun -np P` (P = 1, 2, 3, ...): solves shared by every rank must equal the
// single-rank solve bit for bit, and the serial references.
namespace comm = kollective::comm;
using kollective::driver::world;
namespace coalition = kollective::coalition;
namespace kemeny = kollective::kemeny;
namespace preferences = kollective::preferences;
namespace ranksvm = kollective::ranksvm;
namespace schulze = kollective::schulze;
using Space = Kokkos::DefaultExecutionSpace;

/// Fills this rank's part (a device lambda cannot live in a test body under nvcc).
void fill_own_part(const Kokkos::View<std::int64_t*, Space::memory_space>& parts, std::size_t part) {
  const std::int64_t rank = world().rank();
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, part), KOKKOS_LAMBDA(const int i) { parts(rank * part + i) = rank * 7919 + i; });
}

TEST(distributed, allgather_parts_of_a_view) {
  const std::size_t part = 1000;
  Kokkos::View<std::int64_t*, Space::memory_space> parts("parts", part * world().size());
  fill_own_part(parts, part);
  comm::allgather_parts(Space(), world(), parts.data(), part);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parts);
  for (int r = 0; r < world().size(); ++r) {
    for (std::size_t i = 0; i < part; i += 97) ASSERT_EQ(host(r * part + i), r * 7919 + std::int64_t(i)) << r;
  }
}

template <class Value>
void expect_shared_equals_alone(const coalition::Game& game, coalition::Method method) {
  coalition::Options options;
  options.method = method;
  options.precision = std::is_same_v<Value, float> ? kollective::Precision::float32 : kollective::Precision::float64;
  const coalition::Result alone = coalition::solve(Space(), game, options);
  options.communicator = world();
  const coalition::Result shared = coalition::solve(Space(), game, options);
  const std::string what = "n=" + std::to_string(game.agents) + " " + coalition::to_string(method);
  EXPECT_EQ(shared.value, alone.value) << what;  // bit for bit
  EXPECT_EQ(shared.structure, alone.structure) << what;
  EXPECT_EQ(shared.ranks, world().size()) << what;
  coalition::check_partition(game.agents, shared.structure);
  if (method == coalition::Method::dp && sizeof(Value) == 8) {
    EXPECT_EQ(shared.value, coalition::serial_dp(game)) << what;
  }
  if (game.agents <= coalition::brute_force_max_agents) {
    EXPECT_EQ(coalition::verify(game, options, shared), "brute force");
  }
}

TEST(distributed, coalition_layer_shares_deal_every_block_once) {
  // From fewer blocks than ranks, through short last runs, to runs of the longest length.
  for (const std::uint64_t blocks : {1, 2, 3, 7, 64, 126, 1000, 40000, 5200300}) {
    for (const int ranks : {1, 2, 3, 4, 8}) {
      std::vector<int> dealt(blocks, 0);
      std::uint64_t most = 0;
      for (int r = 0; r < ranks; ++r) {
        const coalition::Impl::LayerShare share(blocks, r, ranks);
        EXPECT_EQ(share.share, coalition::Impl::LayerShare(blocks, 0, ranks).count);
        most = std::max(most, share.count);
        for (std::uint64_t i = 0; i < share.count; ++i) {
          const std::uint64_t block = share.block(i);
          ASSERT_LT(block, blocks) << "blocks=" << blocks << " ranks=" << ranks << " rank=" << r << " i=" << i;
          ++dealt[block];
        }
      }
      EXPECT_EQ(most, coalition::Impl::LayerShare(blocks, 0, ranks).share) << "rank 0 has the most";
      EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), static_cast<std::ptrdiff_t>(blocks))
          << "blocks=" << blocks << " ranks=" << ranks;
    }
  }
}

TEST(distributed, coalition_layers_shared_by_every_rank_equal_one_rank) {
  // n = 6..14: from one high layer (fewer blocks than ranks) to nine, with shares of 1 to 42 blocks.
  for (int n = 1; n <= 14; n += (n < 6 ? 5 : 1)) {
    for (const coalition::Method method : {coalition::Method::dp, coalition::Method::idp}) {
      expect_shared_equals_alone<double>(coalition::uniform_game(n, 300 + n), method);
      expect_shared_equals_alone<float>(coalition::idpg_benchmark(n, 1234), method);
    }
  }
}

TEST(distributed, coalition_auto_shared_is_idp_and_refuses_a_time_limit) {
  // Several ranks: auto is IDP shared (one rank's optimum up to IP's sum order); a limit is refused.
  const auto game = coalition::generate_game("modified_normal", 12, 5);
  coalition::Options options;
  options.method = coalition::Method::automatic;
  const coalition::Result alone = coalition::solve(Space(), game, options);
  options.communicator = world();
  const coalition::Result shared = coalition::solve(Space(), game, options);
  EXPECT_NEAR(shared.value, alone.value, 1e-12 * std::fabs(alone.value));
  EXPECT_EQ(shared.method, world().size() > 1 ? "idp" : alone.method);
  coalition::check_partition(game.agents, shared.structure);
  options.time_limit = 60;
  if (world().size() > 1) {
    EXPECT_THROW(coalition::solve(Space(), game, options), kollective::Error);
  } else {
    EXPECT_TRUE(coalition::solve(Space(), game, options).exact);
  }
}

/// The ranks the shared DP uses: the largest power of two <= P, at most 2^(n-2).
int hypercube_ranks(int n) {
  int ranks = 1;
  while (ranks * 2 <= world().size() && ranks * 8 <= (1 << n)) ranks *= 2;
  return ranks;
}

void expect_same_kemeny(const kemeny::Counts& o, kemeny::Options alone, const std::string& what) {
  alone.list_limit = 1000;
  kemeny::Options shared = alone;
  shared.communicator = world();
  const kemeny::Result a = kemeny::solve(Space(), o, alone);
  const kemeny::Result b = kemeny::solve(Space(), o, shared);
  EXPECT_EQ(b.distance, a.distance) << what;
  EXPECT_EQ(b.count, a.count) << what;
  EXPECT_EQ(b.count_saturated, a.count_saturated) << what;
  EXPECT_EQ(b.optima, a.optima) << what;  // listed in the same order
  EXPECT_EQ(b.method, a.method) << what;
}

TEST(distributed, kemeny_dp_shared_by_every_rank_equals_one_rank) {
  // Few voters: many tied pairs, so many optimal rankings to count and list.
  for (const int n : {1, 2, 3, 5, 8, 10, 13, 16}) {
    for (const std::int64_t voters : {2, 5}) {
      const auto o = preferences::pairwise_reference(preferences::impartial_culture(n, voters, 17 * n + voters));
      const std::string what = "n=" + std::to_string(n) + " voters=" + std::to_string(voters);
      kemeny::Options shared;
      shared.method = kemeny::Method::dp;
      expect_same_kemeny(o, shared, what);
      shared.communicator = world();
      shared.list_limit = n <= kemeny::brute_force_max_alternatives ? 1000000 : 1000;  // all, where checked
      const kemeny::Result result = kemeny::solve(Space(), o, shared);
      EXPECT_EQ(result.ranks, hypercube_ranks(n)) << what;
      if (n <= kemeny::brute_force_max_alternatives) {  // the serial reference
        const kemeny::BruteForceResult brute = kemeny::brute_force(o);
        EXPECT_EQ(result.distance, brute.distance) << what;
        EXPECT_EQ(result.count, brute.optima.size()) << what;
        auto listed = result.optima;
        std::sort(listed.begin(), listed.end());
        EXPECT_EQ(listed, brute.optima) << what;
      }
    }
  }
}

TEST(distributed, kemeny_dp_shared_in_one_workspace_equals_one_rank) {
  // Every rank's workspace through the same shared DPs: kept (13, 13), reshaped (9, 13).
  kollective::Workspace<Space::memory_space> workspace;
  kemeny::Options alone;
  alone.method = kemeny::Method::dp;
  alone.list_limit = 1000;
  kemeny::Options shared = alone;
  shared.communicator = world();
  for (const auto& [n, seed] : std::vector<std::pair<int, std::uint64_t>>{{13, 1}, {13, 2}, {9, 3}, {13, 4}}) {
    const auto o = preferences::pairwise_reference(preferences::impartial_culture(n, 4, seed));
    const kemeny::Result a = kemeny::solve(Space(), o, alone);
    const kemeny::Result b = kemeny::solve(Space(), o, shared, workspace);
    EXPECT_EQ(b.distance, a.distance) << n << " " << seed;
    EXPECT_EQ(b.count, a.count) << n << " " << seed;
    EXPECT_EQ(b.optima, a.optima) << n << " " << seed;
  }
}

TEST(distributed, kemeny_dp_tables_alike_with_overlapped_or_stepwise_trades) {
  // Two buffers per traded layer let each step's trade overlap the next step; one (where two do
  // not fit) trades between the steps, on another schedule. Both fill this rank's share alike.
  const auto o = preferences::pairwise_reference(preferences::impartial_culture(14, 3, 5));
  kemeny::Impl::Layout l = kemeny::Impl::layout(14, world());
  world().prepare_device_collectives();
  if (l.rank < 0) return;  // sits out the shared DP
  std::vector<std::vector<std::uint32_t>> best;
  std::vector<std::vector<std::uint64_t>> ways;
  for (const int buffers : {1, 2}) {
    l.buffers = buffers;
    double exchange_seconds = 0;
    kollective::Workspace<Space::memory_space> workspace;  // holds t's best and ways
    const auto t = kemeny::Impl::run_dp<std::uint32_t>(Space(), o, l, workspace, exchange_seconds);
    const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.best);
    const auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.ways);
    best.emplace_back(b.data(), b.data() + b.extent(0));
    ways.emplace_back(w.data(), w.data() + w.extent(0));
  }
  EXPECT_EQ(best[0], best[1]);
  EXPECT_EQ(ways[0], ways[1]);
}

TEST(distributed, kemeny_auto_shares_each_component_dp) {
  // Noisy Mallows profiles of 24 alternatives: Condorcet components of several sizes, the
  // largest over 8, each given to the shared DP (dp_limit 24). Without the limit, auto gives
  // components over 12 the LP search first for a time, so which method solves them depends on the
  // machine's speed.
  for (const std::uint64_t seed : {1, 2, 3}) {
    const auto o = preferences::pairwise_reference(preferences::mallows(24, 9, 0.9, seed));
    const std::string what = "mallows n=24 seed=" + std::to_string(seed);
    kemeny::Options shared;
    shared.dp_limit = 24;
    expect_same_kemeny(o, shared, what);
    shared.communicator = world();
    const kemeny::Result result = kemeny::solve(Space(), o, shared);
    EXPECT_GT(*std::max_element(result.component_sizes.begin(), result.component_sizes.end()), 8) << what;
    EXPECT_EQ(result.ranks, hypercube_ranks(24)) << what;
  }
}

TEST(distributed, ranksvm_training_shared_by_every_rank_reaches_the_same_optimum) {
  const ranksvm::RankData data = ranksvm::synthetic_letor("mq2007", 60, 2400, 16, 7);
  ranksvm::Options alone;
  alone.eps = 1e-7;
  ranksvm::Options shared = alone;
  shared.communicator = world();
  const ranksvm::Result a = ranksvm::train(Space(), data, alone);
  const ranksvm::Result b = ranksvm::train(Space(), data, shared);
  ASSERT_TRUE(a.converged && b.converged) << a.stop << " / " << b.stop;
  EXPECT_EQ(b.ranks, world().size());
  // The sums run in another order, so the iterates differ in rounding; f is 1-strongly convex,
  // so each w lies within |g| of the optimum, and |g| <= eps |g0| at the stop.
  EXPECT_NEAR(b.objective, a.objective, 1e-9 * std::fabs(a.objective));
  double distance = 0;
  for (int k = 0; k < data.features; ++k) distance += (a.w[k] - b.w[k]) * (a.w[k] - b.w[k]);
  EXPECT_LE(std::sqrt(distance), 2 * alone.eps * a.initial_gradient_norm);
  // Every rank took the same steps: the same w, bit for bit.
  const std::string bits(reinterpret_cast<const char*>(b.w.data()), b.w.size() * sizeof(double));
  for (const std::string& other : world().allgather(bits)) EXPECT_EQ(other, bits);
}

TEST(distributed, ranksvm_shares_are_contiguous_balanced_runs_of_queries) {
  const ranksvm::RankData data = ranksvm::synthetic_letor("mslr", 300, 9000, 4, 5);
  const int ranks = world().size() + 2;  // also counts that are not this run's
  std::int64_t total = 0, heaviest = 0, expected_first = 0;
  std::vector<std::int64_t> load(data.queries());
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    load[q] = ranksvm::query_pairs(data, q) + data.query_begin[q + 1] - data.query_begin[q];
    total += load[q];
    heaviest = std::max(heaviest, load[q]);
  }
  for (int r = 0; r < ranks; ++r) {
    const auto range = ranksvm::Impl::share_queries(data, r, ranks);
    ASSERT_EQ(range.first, expected_first) << "rank " << r;  // contiguous, in order, covering all
    ASSERT_LT(range.first, range.end) << "rank " << r << " has no query";
    const std::int64_t mine = std::accumulate(load.begin() + range.first, load.begin() + range.end, std::int64_t{0});
    EXPECT_LE(mine, total / ranks + heaviest) << "rank " << r;
    const ranksvm::RankData share = ranksvm::Impl::rank_share(data, r, ranks);
    ASSERT_EQ(share.docs, data.query_begin[range.end] - data.query_begin[range.first]);
    EXPECT_EQ(share.x.front(), data.x[data.query_begin[range.first] * data.features]);  // one block of X
    expected_first = range.end;
  }
  EXPECT_EQ(expected_first, data.queries());
}

/// This rank's rows, both directions, equal the whole matrix's rows and columns.
void expect_rows_of(const preferences::PairwiseView<Space::memory_space>& whole,
                    const preferences::PairwiseRows<Space::memory_space>& rows, const std::string& what) {
  const auto all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole);
  const auto forward = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.forward);
  const auto backward = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.backward);
  for (std::int64_t r = 0; r < rows.count(); ++r) {
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(all.extent(1)); ++j) {
      ASSERT_EQ(forward(r, j), all(rows.first + r, j)) << what << " row " << rows.first + r;
      ASSERT_EQ(backward(r, j), all(j, rows.first + r)) << what << " row " << rows.first + r;
    }
  }
}

void expect_same_schulze(const schulze::Result& shared, const schulze::Result& alone, const std::string& what) {
  EXPECT_EQ(shared.winners, alone.winners) << what;
  EXPECT_EQ(shared.beaten, alone.beaten) << what;
  EXPECT_EQ(shared.ranking, alone.ranking) << what;
  EXPECT_EQ(shared.paths, alone.paths) << what;  // bit for bit
  EXPECT_EQ(shared.strength_bits, alone.strength_bits) << what;
  EXPECT_EQ(shared.ranks, world().size()) << what;
}

TEST(distributed, schulze_shared_by_every_rank_equals_one_rank_and_the_reference) {
  // Sizes around tile boundaries, so some ranks hold no tile row (n <= 64) or a short last tile.
  const Space space;
  for (const int n : {1, 2, 5, 63, 64, 65, 130, 200, 257}) {
    for (const std::uint64_t seed : {1, 2}) {
      const auto profile = kollective::test::random_weak_profile(n, 2 * n + 5, seed, seed == 1 ? 5 : 40000);
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      const auto whole = preferences::build_pairwise(space, profile);
      const schulze::SharedRows mine = schulze::shared_rows(n, world());
      const auto rows = preferences::build_pairwise_rows(space, profile, mine.first, mine.count);
      expect_rows_of(whole, rows, what + " ballots");
      const auto counts = preferences::pairwise_reference(profile);
      expect_rows_of(whole, preferences::pairwise_rows_to_device(space, counts, mine.first, mine.count),
                     what + " counts");
      for (const auto rule : {schulze::LinkRule::winning_votes, schulze::LinkRule::margin}) {
        const auto reference = schulze::solve_reference(counts, rule);
        const bool fits16 = *std::max_element(reference.paths.begin(), reference.paths.end()) <= 0xffffu;
        for (const auto width : {schulze::StrengthWidth::bits32, schulze::StrengthWidth::bits16}) {
          if (width == schulze::StrengthWidth::bits16 && !fits16) continue;
          const schulze::Options options{rule, width, true};
          schulze::Options everyone = options;
          everyone.communicator = world();
          const std::string run = what + " " + schulze::to_string(rule) + (fits16 ? " 16" : " 32");
          const schulze::Result alone = schulze::solve(space, whole, options);
          const schulze::Result shared = schulze::solve_shared(space, rows, n, everyone);
          expect_same_schulze(shared, alone, run);
          expect_same_schulze(schulze::solve(space, whole, everyone), alone, run + " (whole matrix on every rank)");
          EXPECT_EQ(shared.paths, reference.paths) << run;
          EXPECT_EQ(shared.winners, reference.winners) << run;
        }
      }
    }
  }
}

TEST(distributed, schulze_shared_generated_tournament_equals_one_rank) {
  const Space space;
  const int n = 300;  // 5 tiles: uneven over 2, 3 and 4 ranks
  const auto whole = preferences::random_pairwise(space, n, 1000001, 7);
  const schulze::SharedRows mine = schulze::shared_rows(n, world());
  const auto rows = preferences::random_pairwise_rows(space, n, 1000001, 7, mine.first, mine.count);
  expect_rows_of(whole, rows, "random tournament");
  schulze::Options options;
  options.keep_paths = true;
  schulze::Options everyone = options;
  everyone.communicator = world();
  expect_same_schulze(schulze::solve_shared(space, rows, n, everyone), schulze::solve(space, whole, options),
                      "random tournament");
}

TEST(distributed, schulze_shared_refuses_rows_that_are_not_this_ranks) {
  const Space space;
  const int n = 130;
  const auto rows = preferences::random_pairwise_rows(space, n, 5, 1, 0, n);  // every row, on every rank
  schulze::Options everyone;
  everyone.communicator = world();
  if (world().size() == 1) {
    EXPECT_NO_THROW(schulze::solve_shared(space, rows, n, everyone));
    return;
  }
  EXPECT_THROW(schulze::solve_shared(space, rows, n, everyone), kollective::SharedError);
}

/// A LETOR file written by rank 0 for every rank to read, removed when the test ends.
class SharedFile {
 public:
  SharedFile(const std::string& name, const std::string& text) : path_(name) {
    if (world().rank() == 0) {
      std::ofstream out(path_, std::ios::binary);
      out << text;
    }
    world().barrier();
  }
  ~SharedFile() {
    world().barrier();
    if (world().rank() == 0) std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string letor_text(const ranksvm::RankData& data) {
  const std::string path = "letor_text_" + std::to_string(world().rank()) + ".txt";
  ranksvm::write_letor(data, path);
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  return text;
}

/// One document as text: its qid, label and features.
std::vector<std::string> documents_of(const ranksvm::RankData& data) {
  std::vector<std::string> documents;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) {
      std::string text = std::to_string(data.file_index[d]) + " " + std::to_string(data.query_ids[q]) + " " +
                         std::to_string(data.labels[d]);
      for (int f = 0; f < data.features; ++f) text += " " + std::to_string(data.x[d * data.features + f]);
      documents.push_back(text);
    }
  }
  return documents;
}

/// Every rank's documents, sorted (a collective).
std::vector<std::string> all_documents(const ranksvm::RankData& share) {
  std::string mine;
  for (const std::string& document : documents_of(share)) mine += document + "\n";
  std::vector<std::string> all;
  for (const std::string& part : world().allgather(mine)) {
    std::istringstream lines(part);
    for (std::string line; std::getline(lines, line);) all.push_back(line);
  }
  std::sort(all.begin(), all.end());
  return all;
}

TEST(distributed, letor_file_read_in_parts_holds_every_document_once) {
  // 61 queries of uneven sizes, some comment lines, a last line without its line break.
  const ranksvm::RankData data = ranksvm::synthetic_letor("mq2007", 61, 1500, 7, 5);
  std::string text = "# LETOR-style comment\n" + letor_text(data) + "# trailing comment\n1 qid:999999 3:0.5";
  const SharedFile file("letor_parts.txt", text);
  const ranksvm::RankData whole = ranksvm::read_letor(file.path());
  const ranksvm::RankData share = ranksvm::read_letor_share(file.path(), world());
  EXPECT_EQ(share.features, whole.features);
  EXPECT_GE(share.queries(), 1);
  auto expected = documents_of(whole);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all_documents(share), expected);  // each once, with its line's place in the file
  // Read in parts, not whole and dealt out: each rank's documents are one run of the file.
  const auto [low, high] = std::minmax_element(share.file_index.begin(), share.file_index.end());
  EXPECT_EQ(*high - *low + 1, share.docs);
  // Shares are balanced by preference pairs: no rank holds more than its part plus one query.
  std::vector<std::int64_t> pairs{ranksvm::preference_pairs(share)};
  world().allreduce_max(pairs);
  std::int64_t largest_query = 0;
  for (std::int64_t q = 0; q < whole.queries(); ++q) {
    const std::int64_t n = whole.query_begin[q + 1] - whole.query_begin[q];
    largest_query = std::max(largest_query, n * n / 2 + n);
  }
  EXPECT_LE(pairs[0], ranksvm::preference_pairs(whole) / world().size() + 2 * largest_query);
}

TEST(distributed, letor_file_read_in_parts_falls_back_to_the_whole_file) {
  // qid 2 resumes after qid 3: a query split across the file is grouped, as one rank groups it.
  const SharedFile split("letor_split.txt",
                         "1 qid:1 1:1\n0 qid:1 1:0\n2 qid:2 1:2\n0 qid:3 1:1\n1 qid:3 1:3\n"
                         "1 qid:2 1:5\n0 qid:4 1:1\n2 qid:4 1:2\n1 qid:5 1:1\n0 qid:5 1:4\n");
  const ranksvm::RankData whole = ranksvm::read_letor(split.path());
  const ranksvm::RankData share = ranksvm::read_letor_share(split.path(), world());
  auto expected = documents_of(whole);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all_documents(share), expected);
  const ranksvm::RankData dealt = ranksvm::Impl::rank_share(whole, world().rank(), world().size());
  EXPECT_EQ(documents_of(share), documents_of(dealt));
}

TEST(distributed, letor_file_read_in_parts_names_the_bad_line_on_every_rank) {
  std::string text;
  for (int q = 1; q <= 40; ++q) text += "1 qid:" + std::to_string(q) + " 1:1\n0 qid:" + std::to_string(q) + " 2:1\n";
  text += "0 qid:41 1:nan\n";  // line 81, in the last rank's bytes
  const SharedFile file("letor_bad_line.txt", text);
  try {
    ranksvm::read_letor_share(file.path(), world());
    FAIL() << "the bad line was read";
  } catch (const kollective::Error& e) {
    EXPECT_NE(std::string(e.what()).find("letor_bad_line.txt:81:"), std::string::npos) << e.what();
  }
}

TEST(distributed, ranksvm_training_on_file_parts_reaches_one_ranks_optimum) {
  const ranksvm::RankData data = ranksvm::synthetic_letor("mq2007", 40, 1200, 9, 3);
  const SharedFile file("letor_training.txt", letor_text(data));
  const ranksvm::RankData whole = ranksvm::read_letor(file.path());
  ranksvm::Options alone;
  alone.eps = 1e-6;
  ranksvm::Options shared = alone;
  shared.communicator = world();
  shared.data_is_share = world().size() > 1;
  const ranksvm::Result a = ranksvm::train(Space(), whole, alone);
  const ranksvm::Result b = ranksvm::train(Space(), ranksvm::read_letor_share(file.path(), world()), shared);
  ASSERT_TRUE(a.converged && b.converged) << a.stop << " / " << b.stop;
  EXPECT_NEAR(b.objective, a.objective, 1e-9 * std::fabs(a.objective));
}

int main(int argc, char** argv) {
  kollective::driver::Session session(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
