/// \file fuzz_letor.cpp
/// LETOR/SVMlight ranking data through ranksvm::read_letor (features taken from the data). The
/// result must be consistent: one label and one row of features per document, query offsets
/// increasing from 0 to the document count.

#include <cstdint>

#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".txt");
  ranksvm::RankData rank;
  if (fuzz::refuses_or_reads([&] { rank = ranksvm::read_letor(input.path()); })) {
    const auto docs = static_cast<std::size_t>(rank.docs);
    fuzz::check(rank.docs >= 0 && rank.features >= 0, "read_letor: negative sizes");
    fuzz::check(rank.labels.size() == docs, "read_letor: not one label per document");
    fuzz::check(rank.x.size() == docs * static_cast<std::size_t>(rank.features),
                "read_letor: x is not docs x features");
    fuzz::check(rank.query_begin.size() == rank.query_ids.size() + 1, "read_letor: query offsets not queries + 1");
    fuzz::check(rank.query_begin.front() == 0 && rank.query_begin.back() == rank.docs,
                "read_letor: offsets do not span the documents");
    for (std::size_t q = 1; q < rank.query_begin.size(); ++q) {
      fuzz::check(rank.query_begin[q - 1] < rank.query_begin[q], "read_letor: empty or unordered query");
    }
  }
  return 0;
}
