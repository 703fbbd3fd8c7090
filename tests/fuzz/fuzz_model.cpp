/// \file fuzz_model.cpp
/// LIBLINEAR-ranksvm model files through ranksvm::read_model.

#include <cstdint>

#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".model");
  fuzz::refuses_or_reads([&] { ranksvm::read_model(input.path()); });
  return 0;
}
