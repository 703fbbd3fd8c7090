/// \file fuzz_model.cpp
/// LIBLINEAR-ranksvm model files through ranksvm::read_model.

#include <cstdint>

#include "algorithms/ranksvm/RankSvmGenerators.hpp"
#include "algorithms/ranksvm/RankSvmIO.hpp"
#include "algorithms/ranksvm/RankSvmMetrics.hpp"
#include "algorithms/ranksvm/RankSvmTypes.hpp"
#include "tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".model");
  fuzz::refuses_or_reads([&] { ranksvm::read_model(input.path()); });
  return 0;
}
