/// \file fuzz_pairwise_csv.cpp
/// Pairwise matrices through read_pairwise_csv, as counts and as signed weights. A read matrix
/// must be n x n with n names and a zero diagonal.

#include <cstdint>

#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".csv");
  for (const auto cells : {preferences::Cells::counts, preferences::Cells::signed_weights}) {
    preferences::PairwiseCounts counts;
    if (fuzz::refuses_or_reads([&] { counts = preferences::read_pairwise_csv(input.path(), cells); })) {
      const auto n = static_cast<std::size_t>(counts.alternatives);
      fuzz::check(counts.alternatives > 0, "read_pairwise_csv returned no alternatives");
      fuzz::check(counts.doubled.size() == n * n, "read_pairwise_csv: matrix is not n x n");
      fuzz::check(counts.names.size() == n, "read_pairwise_csv: not one name per alternative");
      for (int i = 0; i < counts.alternatives; ++i)
        fuzz::check(counts.at(i, i) == 0, "read_pairwise_csv: diagonal not 0");
    }
  }
  return 0;
}
