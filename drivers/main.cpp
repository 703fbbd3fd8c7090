/// \file main.cpp
/// The `kollective` command line: `run`, `check`, `info`, `help [TOPIC]`, `--version`
/// (drivers/Help.cpp holds the texts).

#include <Kokkos_Core.hpp>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <iostream>
#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/RuntimeInfo.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/drivers/Compare.hpp"
#include "kollective/drivers/ConfigRun.hpp"
#include "kollective/drivers/Help.hpp"
#include "kollective/drivers/KokkosSettings.hpp"
#include "kollective/drivers/Reporting.hpp"
#include "kollective/drivers/Runner.hpp"
#include "kollective/drivers/Session.hpp"

namespace {

using namespace kollective;

int info() {
  const RuntimeInfo& runtime = runtime_info();
  std::cout << driver::version_line() << "\n"
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
  std::cout << "\n  optional parts: LP solver (COIN-OR CLP) " << (kemeny::lp_available() ? "yes" : "no") << ", MPI "
            << (comm::built_with_mpi() ? "yes" : "no") << ", NCCL " << (comm::built_with_nccl() ? "yes" : "no");
  std::cout << "\n  algorithms:    ";
  for (const auto& name : driver::algorithm_names()) std::cout << " " << name;
  std::cout << "\n";
  return 0;
}

/// The OpenMP runtime reads OMP_PROC_BIND when it loads, before main. When it is unset, set
/// the binding Kokkos recommends (spread over hardware threads) and start the program again,
/// once, so threads are bound and Kokkos has nothing to warn about. Set OMP_PROC_BIND
/// yourself (e.g. false) to choose otherwise. With a device the host's threads are left unbound
/// (OMP_PROC_BIND=false): the threads a device solve starts beside OpenMP's (Kemeny's LP and the
/// chains' launches) would inherit the main thread's one place and share its core.
void bind_openmp_threads(char* argv[]) {
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::getenv("OMP_PROC_BIND") != nullptr) return;
#ifdef KOKKOS_ENABLE_CUDA
  setenv("OMP_PROC_BIND", "false", 1);  // the runtime's default when unset: no start again needed
  (void)argv;
#else
  setenv("OMP_PROC_BIND", "spread", 1);
  setenv("OMP_PLACES", "threads", 0);
  execv("/proc/self/exe", argv);  // returns only on failure: then run unbound
#endif
#else
  (void)argv;
#endif
}

/// Ranks other than 0 print nothing on stdout (summaries, progress): rank 0 speaks for the run.
void quiet_other_ranks() {
  if (driver::world().rank() == 0) return;
  if (!std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
}

/// The usage of every command, for an error.
std::string usage() { return "\n" + driver::help_text(""); }

int command_line(std::vector<std::string> args) {
  std::string command, config, out_dir;
  bool quiet = false;
  driver::RunFlags flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--quiet" || arg == "-q") {
      quiet = true;
    } else if (arg == "--keep-going") {
      flags.keep_going = true;
    } else if (arg == "--resume") {
      flags.resume = true;
    } else if (arg == "--force-resume") {
      flags.resume = flags.force_resume = true;
    } else if (arg == "--out") {
      if (i + 1 == args.size() || args[i + 1].empty()) fail("--out needs a folder");
      if (!out_dir.empty()) fail("--out is given twice ('", out_dir, "' and '", args[i + 1], "')");
      out_dir = args[++i];
    } else if (arg.size() > 1 && arg[0] == '-') {
      fail("unknown option '", arg, "'", usage());
    } else if (command.empty()) {
      command = arg;
      if (command != "run" && command != "check" && command != "info")
        fail("unknown command '", command, "' (run, check, compare, info or help)", usage());
    } else if ((command == "run" || command == "check") && config.empty()) {
      config = arg;
    } else {
      fail("unexpected argument '", arg, "'", usage());
    }
  }
  driver::set_quiet(quiet);
  if (command == "info") return info();
  if (command == "run" || command == "check") {
    if (config.empty()) fail(command, " needs a config file", usage());
    if (command == "check" && flags.resume) fail("--resume and --force-resume are options of run", usage());
    return command == "run" ? driver::run_config(config, out_dir, flags) : driver::check_config(config, out_dir);
  }
  std::cerr << driver::help_text("");
  return 2;
}

/// `kollective compare A B [--csv FILE] [--fail-above RATIO]`: reads two results databases
/// (needs no Kokkos).
int compare_command(const std::vector<std::string>& args) {
  std::vector<std::string> folders;
  driver::CompareOptions options;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size() && !args[i + 1].empty();
    if (arg == "--csv") {
      if (!has_value) fail("--csv needs a file");
      options.csv = args[++i];
    } else if (arg == "--fail-above") {
      if (!has_value) fail("--fail-above needs a ratio, e.g. 1.1");
      options.fail_above = parse_decimal(args[++i]);
      if (!options.fail_above || !(*options.fail_above > 0))
        fail("--fail-above needs a ratio above 0, not '", args[i], "'");
    } else if (!arg.empty() && arg[0] == '-') {
      fail("unknown option '", arg, "' of compare (--csv FILE, --fail-above RATIO)");
    } else {
      folders.push_back(arg);
    }
  }
  if (folders.size() != 2) fail("compare needs two output folders or databases: kollective compare A B");
  return driver::compare_results(folders[0], folders[1], options);
}

/// `--version`, `--help` and `help [TOPIC]` answered before Kokkos starts (Kokkos would print its
/// own help for --help first); nullopt for every other command line.
std::optional<int> answer_without_kokkos(const std::vector<std::string>& args) {
  std::vector<std::string> words;  // the command and its arguments, options left out
  bool help = false, version = false;
  for (const std::string& arg : args) {
    if (arg == "--version") version = true;
    if (arg == "--help" || arg == "-h") help = true;
    if (arg.empty() || arg[0] != '-') words.push_back(arg);
  }
  if (version) {
    std::cout << driver::version_line() << "\n";
    return 0;
  }
  if (!help && !args.empty() && args[0] == "compare") {
    try {
      return compare_command(args);
    } catch (const std::exception& e) {  // nothing compared: 2, apart from answers that differ (1)
      std::cerr << "kollective: error: " << Impl::message_of(e) << "\n";
      return 2;
    }
  }
  if (!help && (words.empty() || words[0] != "help")) return std::nullopt;
  const std::vector<std::string> topics = driver::help_topics();
  std::string topic;
  if (!words.empty() && words[0] == "help" && words.size() > 1) topic = words[1];
  if (!words.empty() && words[0] != "help" && std::find(topics.begin(), topics.end(), words[0]) != topics.end())
    topic = words[0];
  try {
    std::cout << driver::help_text(topic);
    return 0;
  } catch (const Error& e) {
    std::cerr << "kollective: error: " << e.what() << "\n";
    return 1;
  }
}

/// Reports an error and gives the exit status: a shared one once (rank 0); any other ends every
/// rank with its message when there are several, since the others may wait for this one.
int report_error(const std::exception& e, const char* kind, int status) {
  const bool shared = dynamic_cast<const SharedError*>(&e) != nullptr;
  if (!shared && driver::world().size() > 1)
    driver::abort_all(std::string("kollective: ") + kind + ": " + Impl::message_of(e), status);
  if (driver::world().rank() == 0) std::cerr << "kollective: " << kind << ": " << Impl::message_of(e) << "\n";
  return status;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (const auto answered = answer_without_kokkos(std::vector<std::string>(argv + 1, argv + argc))) return *answered;
  bind_openmp_threads(argv);  // may start the program again: before MPI starts
  kollective::driver::Session session(argc, argv);
  try {
    kollective::driver::world().on_every_rank([&] {
      kollective::driver::check_kokkos_settings(argc, argv);
      kollective::driver::choose_device_for_rank(argc, argv);
      return 0;
    });
  } catch (const kollective::Error& e) {
    return report_error(e, "error", 2);
  }
  Kokkos::ScopeGuard guard(argc, argv);  // removes the Kokkos options it consumed
  // A line at a time, also into a pipe or file: a run stopped midway keeps what it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  quiet_other_ranks();
  try {
    return command_line(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const kollective::Error& e) {
    return report_error(e, "error", 1);
  } catch (const std::exception& e) {
    return report_error(e, "internal error", 1);
  }
}
