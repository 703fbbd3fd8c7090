/// \file main.cpp
/// The `kollective` command line: `run CONFIG.yaml [--out DIR] [--quiet]` and `info`.

#include <Kokkos_Core.hpp>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/Compat.hpp"
#include "core/Config.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Progress.hpp"
#include "core/RuntimeInfo.hpp"
#include "core/Tables.hpp"
#include "drivers/Runner.hpp"

namespace {

using namespace kollective;

const char* usage =
    "usage: kollective run CONFIG.yaml [--out DIR] [--quiet]\n"
    "       kollective info\n"
    "\n"
    "run   runs every entry of the config's `runs:` list, prints a summary and writes tables\n"
    "      (Markdown, CSV, JSON) and result files to DIR (default: the config's `output:`).\n"
    "info  prints the backend, device, memory and versions.\n"
    "Kokkos options (--kokkos-threads=N, ...) are accepted before or after the command.\n";

int info() {
  const RuntimeInfo& runtime = runtime_info();
  std::cout << "Kollective revision " << runtime.revision << "\n"
            << "  backend:        " << runtime.backend << " (concurrency " << runtime.concurrency << ")\n"
            << "  device:         " << runtime.device << "\n"
            << "  device memory:  " << format_bytes(static_cast<double>(runtime.device_memory_bytes)) << " total, "
            << format_bytes(static_cast<double>(available_device_bytes())) << " available\n"
            << "  Kokkos:         " << runtime.kokkos_version << ", Kokkos Kernels " << runtime.kokkos_kernels_version
            << ", yaml-cpp " << runtime.yaml_cpp_version << "\n"
            << "  execution spaces:";
#ifdef KOKKOS_ENABLE_CUDA
  std::cout << " Cuda";
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  std::cout << " OpenMP";
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  std::cout << " Serial";
#endif
  std::cout << "\n  algorithms:    ";
  for (const auto& name : driver::algorithm_names()) std::cout << " " << name;
  std::cout << "\n";
  return 0;
}

int run(const std::string& config_path, std::string out_dir) {
  const ConfigNode config = ConfigNode::load_file(config_path);
  config.expect_keys({"title", "output", "runs"});
  if (out_dir.empty()) out_dir = config.get_string("output", "results");
  const std::string config_dir = std::filesystem::path(config_path).parent_path().string();

  // Validate every run's name and algorithm before doing any work.
  std::vector<ConfigNode> runs = config.required("runs").elements();
  std::vector<std::string> names;
  for (const auto& entry : runs) {
    entry.expect_map();
    const std::string algorithm = entry.required("algorithm").as_string();
    if (!driver::find_runner(algorithm)) {
      std::string known;
      for (const auto& name : driver::algorithm_names()) known += " " + name;
      entry.required("algorithm").error("unknown algorithm '" + algorithm + "' (available:" + known + ")");
    }
    const std::string name = entry.get_string("name", algorithm + "_" + std::to_string(names.size() + 1));
    for (const auto& other : names) {
      if (other == name) entry.required("name").error("duplicate run name '" + name + "'");
    }
    names.push_back(name);
    const driver::RunContext context{out_dir, config_dir, name};
    with_context("run '" + name + "'", [&] { driver::find_runner(algorithm)->validate(entry, context); });
  }
  std::filesystem::create_directories(out_dir);
  if (config.has("title")) std::cout << config.required("title").as_string() << "\n";
  std::cout << "backend " << runtime_info().backend << " on " << runtime_info().device << ", output in " << out_dir << "\n\n";

  for (size_t r = 0; r < runs.size(); ++r) {
    const std::string algorithm = runs[r].required("algorithm").as_string();
    driver::RunContext context{out_dir, config_dir, names[r]};
    Table table(names[r]);
    with_context("run '" + names[r] + "'", [&] { driver::find_runner(algorithm)->run(runs[r], context, table); });
    table.write(out_dir);
    std::cout << "\n";
  }
  std::cout << "tables written to " << out_dir << "/\n";
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);  // removes the Kokkos options it consumed
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    std::string command, config, out_dir;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "--help" || args[i] == "-h") {
        std::cout << usage;
        return 0;
      } else if (args[i] == "--quiet" || args[i] == "-q") {
        Progress::set_quiet(true);
      } else if (args[i] == "--out") {
        if (i + 1 == args.size()) fail("--out needs a folder");
        out_dir = args[++i];
      } else if (command.empty()) {
        command = args[i];
      } else if (command == "run" && config.empty()) {
        config = args[i];
      } else {
        fail("unexpected argument '", args[i], "'\n", usage);
      }
    }
    if (command == "info") return info();
    if (command == "run") {
      if (config.empty()) fail("run needs a config file\n", usage);
      return run(config, out_dir);
    }
    std::cerr << usage;
    return 2;
  } catch (const kollective::Error& e) {
    std::cerr << "kollective: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "kollective: internal error: " << e.what() << "\n";
    return 1;
  }
}
