/// \file fuzz_preflib_file.cpp
/// PrefLib files through read_preflib, the input saved with the extension .soc, .soi, .toc or .toi
/// chosen by its size (the extension is a type the data must fit). A read profile must pass
/// validate().

#include <cstdint>
#include <string>

#include "kollective/core/preferences/PrefLib.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* const extensions[] = {".soc", ".soi", ".toc", ".toi"};
  fuzz::TempInput input(data, size, extensions[size % 4]);
  preferences::Profile profile;
  if (fuzz::refuses_or_reads([&] { profile = preferences::read_preflib(input.path()); })) {
    fuzz::check(fuzz::refuses_or_reads([&] { preferences::validate(profile, "fuzz"); }),
                "read_preflib returned a profile that validate() refuses");
  }
  return 0;
}
