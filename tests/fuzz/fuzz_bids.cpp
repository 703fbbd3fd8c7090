/// \file fuzz_bids.cpp
/// Coalition values in sparse bids (items N, then price item item ...) through coalition::read_bids. A read game must
/// have 1..40 agents and pass validate_values (2^n finite values, v(empty) = 0).

#include <cstdint>

#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::TempInput input(data, size, ".bids");
  coalition::Game game;
  if (fuzz::refuses_or_reads([&] { game = coalition::read_bids(input.path()); })) {
    fuzz::check(game.agents >= 1 && game.agents <= 40, "read_bids: agents outside 1..40");
    fuzz::check(fuzz::refuses_or_reads([&] { coalition::validate_values(game, "fuzz"); }),
                "read_bids returned values that validate_values refuses");
  }
  return 0;
}
