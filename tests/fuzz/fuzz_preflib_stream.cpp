/// \file fuzz_preflib_stream.cpp
/// PrefLib text through parse_preflib (no declared type, then each of soc/soi/toc/toi). A parsed
/// profile must pass validate() and be accepted again when its own data type is declared.

#include <cstdint>
#include <sstream>
#include <string>

#include "core/preferences/PrefLib.hpp"
#include "tests/fuzz/FuzzInput.hpp"

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
  for (const char* type : {"soc", "soi", "toc", "toi"}) {
    fuzz::refuses_or_reads([&] {
      std::istringstream in(text);
      preferences::parse_preflib(in, "fuzz", type);
    });
  }
  return 0;
}
