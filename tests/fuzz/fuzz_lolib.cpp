/// \file fuzz_lolib.cpp
/// Weight matrices in LOLIB's format through read_lolib. A read matrix must be n x n with n names,
/// a zero diagonal, one zero cell in each pair, and its shift even (twice a sum).

#include <cstdint>

#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".mat");
  preferences::PairwiseCounts counts;
  if (fuzz::refuses_or_reads([&] { counts = preferences::read_lolib(input.path()); })) {
    const auto n = static_cast<std::size_t>(counts.alternatives);
    fuzz::check(counts.alternatives > 0, "read_lolib returned no alternatives");
    fuzz::check(counts.doubled.size() == n * n, "read_lolib: matrix is not n x n");
    fuzz::check(counts.names.size() == n, "read_lolib: not one name per alternative");
    fuzz::check(counts.shift % 2 == 0, "read_lolib: odd shift");
    for (int i = 0; i < counts.alternatives; ++i) {
      fuzz::check(counts.at(i, i) == 0, "read_lolib: diagonal not 0");
      for (int j = i + 1; j < counts.alternatives; ++j)
        fuzz::check(counts.at(i, j) == 0 || counts.at(j, i) == 0, "read_lolib: a pair with two margins");
    }
  }
  return 0;
}
