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

#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/tests/DistributedHelpers.hpp"

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
