/// \file fuzz_preflib_stream.cpp
/// PrefLib text through parse_preflib, with no declared type and then with one of soc/soi/toc/toi
/// (chosen by the input's size). A parsed profile must pass validate() and be accepted again when
/// its own data type is declared.

#include <cstdint>
#include <sstream>
#include <string>

#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  preferences::Profile profile;
  const bool read = fuzz::refuses_or_reads([&] {
    std::istringstream in(text);
    profile = preferences::parse_preflib(in, "fuzz", "");
  });
  if (read) {
    fuzz::check(fuzz::refuses_or_reads([&] { preferences::validate(profile, "fuzz"); }),
                "parse_preflib returned a profile that validate() refuses");
    fuzz::check(fuzz::refuses_or_reads([&] {
                  std::istringstream in(text);
                  preferences::parse_preflib(in, "fuzz", preferences::to_string(profile.data_type()));
                }),
                "parse_preflib refuses the data type it reports for the same text");
  }
  // One declared type per input (by size), so each of them is tried without parsing four times.
  static const char* const types[] = {"soc", "soi", "toc", "toi"};
  fuzz::refuses_or_reads([&] {
    std::istringstream in(text);
    preferences::parse_preflib(in, "fuzz", types[size % 4]);
  });
  return 0;
}
