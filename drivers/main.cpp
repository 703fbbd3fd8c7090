/// \file main.cpp
/// The `kollective` command line: `run CONFIG.yaml [--out DIR] [--quiet]` and `info`.

#include <Kokkos_Core.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "core/kokkos_ext/Compat.hpp"
#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Progress.hpp"
#include "core/RuntimeInfo.hpp"
#include "core/comm/Communicator.hpp"
#include "drivers/ConfigRun.hpp"
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
    "      Under mpirun, the runs' points are spread over the ranks (one GPU each) and rank 0 writes\n"
    "      the tables; runs with `distribute: solve` are solved by all ranks together.\n"
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

/// Ranks other than 0 print nothing on stdout (summaries, progress): rank 0 speaks for the run.
void quiet_other_ranks() {
  if (comm::rank() == 0) return;
  Progress::set_quiet(true);
  if (!std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
}

int command_line(std::vector<std::string> args) {
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
    return driver::run_config(config, out_dir, keep_going);
  }
  std::cerr << usage;
  return 2;
}

/// Reports an error and gives the exit status: a shared one once (rank 0); any other ends every
/// rank with its message when there are several, since the others may wait for this one.
int report_error(const std::exception& e, const char* kind, int status) {
  const bool shared = dynamic_cast<const SharedError*>(&e) != nullptr;
  if (!shared && comm::size() > 1) comm::abort_all(std::string("kollective: ") + kind + ": " + e.what(), status);
  if (comm::rank() == 0) std::cerr << "kollective: " << kind << ": " << e.what() << "\n";
  return status;
}

}  // namespace

int main(int argc, char* argv[]) {
  bind_openmp_threads(argv);  // may start the program again: before MPI starts
  kollective::comm::Session session(argc, argv);
  try {
    kollective::comm::on_every_rank([&] {
      kollective::driver::check_kokkos_settings(argc, argv);
      kollective::driver::choose_device_for_rank(argc, argv);
      return 0;
    });
  } catch (const kollective::Error& e) {
    return report_error(e, "error", 2);
  }
  Kokkos::ScopeGuard guard(argc, argv);  // removes the Kokkos options it consumed
  quiet_other_ranks();
  try {
    return command_line(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const kollective::Error& e) {
    return report_error(e, "error", 1);
  } catch (const std::exception& e) {
    return report_error(e, "internal error", 1);
  }
}
