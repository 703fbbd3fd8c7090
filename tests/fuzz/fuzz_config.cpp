/// \file fuzz_config.cpp
/// YAML configs through ConfigNode::load_string and the validation `kollective run` does before
/// any work (drivers/main.cpp run(): top-level keys, the runs list, algorithm names, run names,
/// and each runner's validate). That loop is private to main.cpp, so it is mirrored here; keep
/// the two in step. Validation reads no input files, so relative paths resolve against a
/// folder that need not exist.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "kollective/core/Config.hpp"
#include "kollective/drivers/Runner.hpp"
#include "kollective/tests/fuzz/FuzzInput.hpp"

using namespace kollective;

namespace {

void validate_config(const std::string& text) {
  const ConfigNode config = ConfigNode::load_string(text, "fuzz.yaml");
  config.expect_keys({"title", "output", "runs"});
  const std::string out_dir = config.get_string("output", "results");
  if (config.has("title")) config.required("title").as_string();
  std::vector<std::string> names;
  for (const auto& entry : config.required("runs").elements()) {
    entry.expect_map();
    const std::string algorithm = entry.required("algorithm").as_string();
    const driver::Runner* runner = driver::find_runner(algorithm);
    if (!runner) entry.required("algorithm").error("unknown algorithm");
    const std::string name = entry.get_string("name", algorithm + "_" + std::to_string(names.size() + 1));
    for (const auto& other : names) {
      if (other == name) entry.required("name").error("duplicate run name");
    }
    names.push_back(name);
    const driver::RunContext context{out_dir, "fuzz-config-dir", name};
    with_context("run '" + name + "'", [&] { runner->parse(entry, context)->validate(context); });
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  Kokkos::initialize();  // as the driver does before validating (left for the process exit)
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::refuses_or_reads([&] { validate_config(text); });
  return 0;
}
