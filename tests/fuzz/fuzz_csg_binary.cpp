/// \file fuzz_csg_binary.cpp
/// Coalition values in Kollective's binary format (KLCSG v2, and v1) through coalition::read_binary. A read game must
/// have 1..40 agents and pass validate_values (2^n finite values, v(empty) = 0).

#include <cstdint>

#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".kcsg");
  coalition::Game game;
  if (fuzz::refuses_or_reads([&] { game = coalition::read_binary(input.path()); })) {
    fuzz::check(game.agents >= 1 && game.agents <= 40, "read_binary: agents outside 1..40");
    fuzz::check(fuzz::refuses_or_reads([&] { coalition::validate_values(game, "fuzz"); }),
                "read_binary returned values that validate_values refuses");
  }
  return 0;
}
