#include "kollective/drivers/Help.hpp"

#include <utility>

#include "kollective/core/Error.hpp"
#include "kollective/core/RuntimeInfo.hpp"
#include "kollective/drivers/Columns.hpp"
#include "kollective/drivers/ConfigKeys.hpp"

namespace kollective::driver {

namespace {

const char* overview =
    "usage: kollective COMMAND [ARGUMENTS]\n"
    "\n"
    "  run CONFIG.yaml [--out DIR] [--quiet] [--keep-going] [--resume]   runs the config's runs\n"
    "  check CONFIG.yaml [--out DIR]    every check `run` makes first; solves nothing\n"
    "  compare A B [--csv FILE] [--fail-above RATIO]   two output folders, point by point\n"
    "  info                             backend, device, memory, versions, optional parts\n"
    "  help [TOPIC]                     this text, or one of: run, check, compare, info, algorithms,\n"
    "                                   config, results\n"
    "  --version                        version and revision\n"
    "\n"
    "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=N, ...) are accepted before or after\n"
    "the command. Start with configs/quickstart.yaml; README.md says more.\n";

const char* run_help =
    "kollective run CONFIG.yaml [--out DIR] [--quiet] [--keep-going] [--resume | --force-resume]\n"
    "\n"
    "Runs every entry of the config's `runs:` list, prints a summary and writes tables (Markdown,\n"
    "CSV, JSON) and result files to DIR (default: the config's `output:`, else `results`).\n"
    "Every run is checked before the first starts (as `kollective check` does); a run's files\n"
    "appear only when it completes (finished points' files wait in DIR/results.pending). After\n"
    "a failed run the rest are skipped, unless --keep-going (or `keep_going: true` in the config);\n"
    "the exit status is 1 if any run failed.\n"
    "Every solved point is committed at once to DIR/results.sqlite (SQLite). SIGTERM or SIGINT\n"
    "stops after the point in flight: the tables of every finished point are written, the\n"
    "command that goes on is printed, and the exit status is 128 + the signal (143 for SIGTERM);\n"
    "a second signal 3 s or more later stops at once. --resume solves only the points DIR's\n"
    "database lacks and writes the whole tables; it refuses when the revision, the backend or a\n"
    "key that changes answers differs from the stored points' (--force-resume goes on, solving\n"
    "a run whose keys changed again). One run at a time writes DIR.\n"
    "--quiet silences the progress, training logs and time estimates on stderr.\n"
    "Under mpirun, the runs' points are spread over the ranks (one GPU each) and rank 0 writes\n"
    "the tables; runs with `distribute: solve` share each solve among all ranks.\n";

const char* check_help =
    "kollective check CONFIG.yaml [--out DIR]\n"
    "\n"
    "Makes every check that `run` makes before its first run, and nothing else: the config's keys\n"
    "and values, every input file (read and parsed, except files over 256 MiB), sweep values,\n"
    "memory, and that the output folder can be made and written (it is not created). Time\n"
    "estimates against `max_seconds`, the size limits of files to write and a RankSVM training\n"
    "set without pairs are checked as each run starts, not here. Prints the runs and their\n"
    "points; exit status 0, or the first error with its file:line and status 1.\n";

const char* compare_help =
    "kollective compare A B [--csv FILE] [--fail-above RATIO]\n"
    "\n"
    "Compares the results databases of two output folders of `kollective run` (OpenMP against\n"
    "CUDA, one GPU against two, one revision against the next). Points match by run and their\n"
    "context columns (the input, sizes and options as configured; not the ranks, repetitions\n"
    "or what `auto` chose), in whatever order the runs solved them. Prints a Markdown\n"
    "table: per point whether every answer column agrees (doubles within a relative 1e-6, the\n"
    "rest exactly) and solve_s in A and B with their ratio B/A, within noise where both timed\n"
    "repetitions (the ratio within the larger spread, solve_s over solve_min_s). --csv writes every\n"
    "timing column's ratio, a line each. Exit status 1 when an answer differs, or with\n"
    "--fail-above when a point's solve_s ratio exceeds RATIO beyond noise or A has points B lacks\n"
    "(each named on stderr); 2 when nothing could be compared (usage, a missing database).\n";

const char* info_help =
    "kollective info\n"
    "\n"
    "Prints the version and revision, the backend (execution spaces) and device, the device\n"
    "memory, the versions of Kokkos, Kokkos Kernels and yaml-cpp, the optional parts this build\n"
    "has (Kemeny's LP solver COIN-OR CLP, MPI, NCCL) and the algorithms.\n";

const char* algorithms_help =
    "algorithms (the `algorithm:` of a run)\n"
    "\n"
    "  schulze    Schulze voting: pairwise counts from ballots (or a matrix), strongest paths,\n"
    "             winners, ranking. Inputs: preflib, matrix, generator.\n"
    "  kemeny     Kemeny rank aggregation / the linear ordering problem, exact: decomposition,\n"
    "             subset DP, LP bound with triangle cuts, branch and cut, certificates. Inputs:\n"
    "             preflib, matrix (counts or signed weights), lolib, generator.\n"
    "  coalition  coalition structure generation: the best partition of n agents by the DP or\n"
    "             IDP. Inputs: generated value distributions or a values file.\n"
    "  ranksvm    linear RankSVM (TRON): a ranking model from query-grouped features. Inputs:\n"
    "             SVMlight/LETOR files or a generator.\n"
    "\n"
    "Each one's keys: `kollective help config`.\n";

}  // namespace

std::vector<std::string> help_topics() {
  return {"run", "check", "compare", "info", "algorithms", "config", "results"};
}

std::string help_text(const std::string& topic) {
  const std::pair<const char*, const char*> texts[] = {
      {"", overview},        {"run", run_help},
      {"check", check_help}, {"compare", compare_help},
      {"info", info_help},   {"algorithms", algorithms_help},
  };
  if (topic == "config") return config_reference();
  if (topic == "results") return results_reference();
  for (const auto& [name, text] : texts) {
    if (topic == name) return text;
  }
  std::string known;
  for (const std::string& name : help_topics()) known += (known.empty() ? "" : ", ") + name;
  fail("no help on '", topic, "' (topics: ", known, ")");
}

std::string version_line() {
  return std::string("kollective ") + KOLLECTIVE_VERSION + " (revision " + git_revision() + ")";
}

}  // namespace kollective::driver
