/// \file main.cpp
/// The `kollective` command line: `run CONFIG.yaml [--out DIR] [--quiet]` and `info`.

#include <Kokkos_Core.hpp>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/kokkos_ext/Compat.hpp"
#include "core/Config.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Parse.hpp"
#include "core/Progress.hpp"
#include "core/ResultFiles.hpp"
#include "core/RuntimeInfo.hpp"
#include "core/Tables.hpp"
#include "core/TextInput.hpp"
#include "drivers/KokkosSettings.hpp"
#include "drivers/Runner.hpp"

namespace {

using namespace kollective;

const char* usage =
    "usage: kollective run CONFIG.yaml [--out DIR] [--quiet] [--keep-going]\n"
    "       kollective info\n"
    "\n"
    "run   runs every entry of the config's `runs:` list, prints a summary and writes tables\n"
    "      (Markdown, CSV, JSON) and result files to DIR (default: the config's `output:`).\n"
    "      Every run is checked before the first starts; a run's files appear only when it\n"
    "      completes. After a failed run the rest are skipped, unless --keep-going (or\n"
    "      `keep_going: true` in the config); the exit status is 1 if any run failed.\n"
    "info  prints the backend, device, memory and versions.\n"
    "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=N, ...) are accepted before or after\n"
    "the command.\n";

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

/// The OpenMP runtime reads OMP_PROC_BIND when it loads, before main. When it is unset, set
/// the binding Kokkos recommends (spread over hardware threads) and start the program again,
/// once, so threads are bound and Kokkos has nothing to warn about. Set OMP_PROC_BIND
/// yourself (e.g. false) to choose otherwise.
void bind_openmp_threads(char* argv[]) {
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::getenv("OMP_PROC_BIND") != nullptr) return;
  setenv("OMP_PROC_BIND", "spread", 1);
  setenv("OMP_PLACES", "threads", 0);
  execv("/proc/self/exe", argv);  // returns only on failure: then run unbound
#else
  (void)argv;
#endif
}

/// A run of the config, checked and ready to start.
struct PlannedRun {
  std::shared_ptr<const driver::Job> job;
  std::string name;
};

/// The run's name: given (a safe file name, unique) or <algorithm>_<k>.
std::string run_name(const ConfigNode& entry, const std::string& algorithm, std::size_t index,
                     const std::vector<PlannedRun>& earlier) {
  const std::string name = entry.get_string("name", algorithm + "_" + std::to_string(index + 1));
  const ConfigNode where = entry.has("name") ? entry.required("name") : entry;
  if (!is_safe_file_name(name)) {
    where.error("run name '" + name +
                "' is not allowed: it names the result files, so use letters, digits, '.', '_' and '-', starting "
                "with a letter or digit, at most 100 characters");
  }
  for (const auto& other : earlier) {
    if (other.name == name) where.error("duplicate run name '" + name + "'");
    for (const auto& [a, b] : {std::pair(other.name, name), std::pair(name, other.name)}) {
      if (result_names_may_collide(a, b)) {
        where.error("run names '" + a + "' and '" + b + "' can give two result files the same name ('" + a +
                    "' writes files named '" + a + "_...'): rename one");
      }
    }
  }
  return name;
}

/// Checks every run (config, inputs, sizes) before any starts.
std::vector<PlannedRun> plan_runs(const ConfigNode& config, const std::string& out_dir, const std::string& config_dir) {
  std::vector<PlannedRun> plan;
  const ConfigNode runs = config.required("runs");
  if (!runs.is_sequence()) runs.error("expected a list of runs");
  for (const auto& entry : runs.elements()) {
    entry.expect_map();
    const std::string algorithm = entry.required("algorithm").as_string();
    const driver::Runner* runner = driver::find_runner(algorithm);
    if (!runner) {
      std::string known;
      for (const auto& name : driver::algorithm_names()) known += " " + name;
      entry.required("algorithm").error("unknown algorithm '" + algorithm + "' (available:" + known + ")");
    }
    const std::string name = run_name(entry, algorithm, plan.size(), plan);
    const driver::RunContext context{out_dir, config_dir, name};
    with_context("run '" + name + "'", [&] {
      std::shared_ptr<const driver::Job> job = runner->parse(entry, context);
      job->validate(context);
      plan.push_back({std::move(job), name});
    });
  }
  if (plan.empty()) runs.error("no runs");
  return plan;
}

/// Runs one planned run; its tables and files appear in the output folder only if it completes.
void run_one(const PlannedRun& planned, const std::string& out_dir, const std::string& config_dir,
             std::set<std::string>& written) {
  ResultFiles files(out_dir, &written);
  driver::RunContext context{out_dir, config_dir, planned.name, &files};
  Table table(planned.name);
  with_context("run '" + planned.name + "'", [&] {
    planned.job->run(context, table);
    table.write(files);
    files.commit();
  });
}

int run(const std::string& config_path, std::string out_dir, bool keep_going) {
  check_input_file(config_path, "config");
  const ConfigNode config = ConfigNode::load_file(config_path);
  config.expect_keys({"title", "output", "keep_going", "runs"});
  const std::string configured_out = config.get_string("output", "results");  // checked even when --out replaces it
  if (out_dir.empty()) out_dir = configured_out;
  keep_going = keep_going || config.get_bool("keep_going", false);
  const std::string config_dir = std::filesystem::path(config_path).parent_path().string();
  const std::vector<PlannedRun> plan = plan_runs(config, out_dir, config_dir);
  prepare_output_folder(out_dir);

  if (config.has("title")) std::cout << config.required("title").as_string() << "\n";
  std::cout << "backend " << runtime_info().backend << " on " << runtime_info().device << ", output in " << out_dir
            << "\n\n";
  std::vector<std::string> completed, failed;
  std::set<std::string> written;  // by the runs so far
  for (const PlannedRun& planned : plan) {
    try {
      run_one(planned, out_dir, config_dir, written);
      completed.push_back(planned.name);
    } catch (const Error& e) {
      std::cerr << "kollective: error: " << e.what() << "\n";
      failed.push_back(planned.name);
      if (!keep_going) break;
    }
    std::cout << "\n";
  }
  const std::size_t not_started = plan.size() - completed.size() - failed.size();
  auto list = [](const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  };
  if (failed.empty()) {
    std::cout << "tables written to " << out_dir << "/\n";
    return 0;
  }
  std::cerr << "kollective: " << completed.size() << " of " << plan.size() << " runs completed"
            << (completed.empty() ? "" : " (" + list(completed) + "), their tables are in " + out_dir + "/")
            << "; failed: " << list(failed);
  if (not_started) std::cerr << "; not started: " << not_started << " (--keep-going runs the rest)";
  std::cerr << "\n";
  return 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    kollective::driver::check_kokkos_settings(argc, argv);
  } catch (const kollective::Error& e) {
    std::cerr << "kollective: error: " << e.what() << "\n";
    return 2;
  }
  bind_openmp_threads(argv);
  Kokkos::ScopeGuard guard(argc, argv);  // removes the Kokkos options it consumed
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    std::string command, config, out_dir;
    bool keep_going = false;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << usage;
        return 0;
      } else if (arg == "--quiet" || arg == "-q") {
        Progress::set_quiet(true);
      } else if (arg == "--keep-going") {
        keep_going = true;
      } else if (arg == "--out") {
        if (i + 1 == args.size() || args[i + 1].empty()) fail("--out needs a folder");
        out_dir = args[++i];
      } else if (arg.size() > 1 && arg[0] == '-') {
        fail("unknown option '", arg, "'\n", usage);
      } else if (command.empty()) {
        command = arg;
        if (command != "run" && command != "info") fail("unknown command '", command, "' (run or info)\n", usage);
      } else if (command == "run" && config.empty()) {
        config = arg;
      } else {
        fail("unexpected argument '", arg, "'\n", usage);
      }
    }
    if (command == "info") return info();
    if (command == "run") {
      if (config.empty()) fail("run needs a config file\n", usage);
      return run(config, out_dir, keep_going);
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
