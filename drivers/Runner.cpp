#include "kollective/drivers/Runner.hpp"

#include "kollective/core/Error.hpp"

namespace kollective::driver {

namespace {
const Runner runners[] = {
    {"schulze", &parse_schulze, &schulze_columns},
    {"kemeny", &parse_kemeny, &kemeny_columns},
    {"coalition", &parse_coalition, &coalition_columns},
    {"ranksvm", &parse_ranksvm, &ranksvm_columns},
};
}  // namespace

std::string RunContext::input_path(const ConfigNode& node) const {
  const std::string path = node.as_string();
  if (path.empty()) node.error("the path is empty");
  if (path[0] == '/' || config_dir.empty()) return path;
  return config_dir + "/" + path;
}

std::string RunContext::output_file(const std::string& suffix) const {
  if (!files) fail("internal: no result files while validating run '", run_name, "'");
  return files->path(run_name + suffix);
}

const Runner* find_runner(const std::string& algorithm) {
  for (const auto& runner : runners) {
    if (algorithm == runner.algorithm) return &runner;
  }
  return nullptr;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& runner : runners) names.emplace_back(runner.algorithm);
  return names;
}

}  // namespace kollective::driver
