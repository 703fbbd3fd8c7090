#include "kollective/drivers/ConfigKeys.hpp"

#include <sstream>

#include "kollective/core/Tables.hpp"

#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/kemeny/KemenyTypes.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/schulze/SchulzeTypes.hpp"

namespace kollective::driver {

namespace {

/// Whether `algorithm` takes a key meant for `algorithms` (space-separated; "" : all).
bool takes(const std::string& algorithms, const std::string& algorithm) {
  if (algorithms.empty() || algorithm.empty()) return true;
  std::istringstream names(algorithms);
  std::string name;
  while (names >> name) {
    if (name == algorithm) return true;
  }
  return false;
}

/// The `options.<name>` rows of an algorithm's declared fields.
template <class Options>
std::vector<ConfigKey> option_keys(const std::string& section, const OptionFields<Options>& fields) {
  std::vector<ConfigKey> keys;
  for (const OptionDescription& field : describe(fields)) {
    std::string range = field.range_text();
    if (!field.note.empty()) range += range.empty() ? field.note : " (" + field.note + ")";
    keys.push_back({section, "options." + field.name, to_string(field.kind), value_text(field.fallback), range,
                    field.meaning, "", field.former_names});
  }
  return keys;
}

/// `rows` with `more` appended.
std::vector<ConfigKey> joined(std::vector<ConfigKey> rows, const std::vector<ConfigKey>& more) {
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

const char* const elections = "schulze kemeny";
const char* const repeated = "schulze kemeny coalition";
const char* const measured = "schulze kemeny coalition ranksvm";

}  // namespace

const std::vector<ConfigKey>& config_keys() {
  static const std::vector<ConfigKey> common = {
      {"config", "title", "text", "", "", "printed first", ""},
      {"config", "output", "text", "results", "a folder", "where the tables go (--out replaces it)", ""},
      {"config", "keep_going", "true/false", "false", "", "run the rest after a run fails (--keep-going)", ""},
      {"config", "runs", "list", "", "at least one run", "the runs, in order; all are checked before the first starts",
       ""},
      {"run", "name", "text", "<algorithm>_<k>", "letters, digits, '.', '_', '-'; at most 100",
       "names the run's result files", ""},
      {"run", "algorithm", "choice", "", "schulze | kemeny | coalition | ranksvm", "what to solve", ""},
      {"run", "input", "map", "", "the algorithm's input keys", "what to solve it on", ""},
      {"run", "options", "map", "{}", "the algorithm's options", "how to solve it", ""},
      {"run", "write", "map", "{}", "the algorithm's write keys", "which result files to write beside the tables", ""},
      {"run", "sweep", "map", "", "the algorithm's sweep keys (generator inputs)",
       "one point per value, or per pair of values", repeated},
      {"run", "repetitions", "integer", "1", "1..1000", "timed solves of each point; the median is reported", measured},
      {"run", "warmup", "integer", "1 if repetitions > 1, else 0", "0..100", "untimed solves before the timed ones",
       measured},
      {"run", "verify", "choice", "auto", "auto | true | false",
       "compare with an independent solver: auto where one applies, true: always (refused where none applies)",
       measured},
      {"run", "max_seconds", "number", "none", "> 0", "refuse the run when its time estimate exceeds this", repeated},
      {"run", "distribute", "choice", "points", "points | solve",
       "under mpirun: spread the points over the ranks, or solve each point with every rank", ""},
      {"election input", "input.preflib", "file", "", ".soc .soi .toc .toi (current or pre-2022 format)",
       "a PrefLib election (exactly one of preflib, matrix, lolib, generator)", elections},
      {"election input", "input.matrix", "file", "", "CSV, optional name header and column",
       "a pairwise matrix: counts (.5 allowed) or, with weights: signed, integer weights", elections},
      {"election input", "input.weights", "choice", "counts", "counts | signed",
       "with matrix: signed weights are Kemeny's (the LOP), |w| < 2^31", elections},
      {"election input", "input.lolib", "file", "", "LOLIB's format: n, then n x n integers",
       "a weight matrix for Kemeny / the LOP", elections},
      {"election input", "input.generator", "map", "", "", "a seeded election", elections},
      {"election input", "input.generator.model", "choice", "",
       "impartial_culture | mallows | mallows_mixture | kemeny_benchmark | random_pairwise",
       "the ballots' distribution (random_pairwise: a random matrix)", elections},
      {"election input", "input.generator.alternatives", "integer", "", "1..100000 (random_pairwise: 2^20)",
       "alternatives", elections},
      {"election input", "input.generator.voters", "integer", "100", "1..2^31-1",
       "ballots (kemeny_benchmark: the total weight)", elections},
      {"election input", "input.generator.phi", "number", "0.5", "0..1", "mallows and mallows_mixture: dispersion",
       elections},
      {"election input", "input.generator.seed", "integer", "1", ">= 0", "the generator's seed", elections},
      {"election input", "sweep.alternatives", "list of integers", "the generator's", "as the generator's",
       "one point per value", elections},
      {"election input", "sweep.voters", "list of integers", "the generator's", "as the generator's",
       "one point per value", elections},
  };
  static const std::vector<ConfigKey> schulze_write = {
      {"schulze", "write.ranking", "true/false", "true", "", "`<name>_ranking.csv`", ""},
      {"schulze", "write.paths", "true/false", "false", "n <= 8192", "`<name>_paths.csv`: the strongest paths", ""},
      {"schulze", "write.pairwise", "true/false", "false", "n <= 8192", "`<name>_pairwise.csv`: the counts", ""},
      {"schulze", "write.beats", "true/false", "false", "n <= 8192", "`<name>_beats.csv`: who beats whom", ""},
  };
  static const std::vector<ConfigKey> kemeny_write = {
      {"kemeny", "write.rankings", "true/false", "true", "", "`<name>_rankings.csv`: the optimal rankings", ""},
      {"kemeny", "write.certificate", "true/false", "false", "",
       "`<name>_certificate.json`: a proof `scripts/kollective check-certificate` verifies", ""},
  };
  static const std::vector<ConfigKey> coalition_input = {
      {"coalition", "input.file", "file", "", "Rahwan's text, the binary format, or bids",
       "coalition values (exactly one of file, generator)", ""},
      {"coalition", "input.format", "choice", "auto", "auto | text | binary | bids", "the file's format", ""},
      {"coalition", "input.generator", "map", "", "", "seeded values", ""},
      {"coalition", "input.generator.model", "choice", "",
       "idpg | uniform | normal | modified_uniform | modified_normal | exponential | beta | gamma | ndcs | "
       "agent_uniform | agent_normal | chi_square | weibull | f | cauchy | student_t | zipf | pascal",
       "the values' distribution", ""},
      {"coalition", "input.generator.agents", "integer", "10", "1..40", "agents", ""},
      {"coalition", "input.generator.seed", "integer", "1234", "0..2^32-1", "the generator's seed", ""},
      {"coalition", "input.names", "list", "1..n", "one per agent", "agents' names in the output", ""},
      {"coalition", "sweep.agents", "list of integers", "the generator's", "1..40", "one point per value", ""},
  };
  static const std::vector<ConfigKey> coalition_write = {
      {"coalition", "write.values", "true/false", "false", "", "`<name>_values.txt`: the values, Rahwan's text", ""},
      {"coalition", "write.binary", "true/false", "false", "", "`<name>_values.kcsg`: the values, binary", ""},
  };
  static const std::vector<ConfigKey> ranksvm_input = {
      {"ranksvm", "input.train", "file or map", "", "a LETOR/SVMlight file, or {generator: ...}", "the training set",
       ""},
      {"ranksvm", "input.test", "file or map", "none", "as train", "a test set to score", ""},
      {"ranksvm", "input.model", "file", "none", "a LIBLINEAR-ranksvm model", "evaluate this model, no training", ""},
      {"ranksvm", "generator", "map", "", "", "under train or test: seeded data", ""},
      {"ranksvm", "generator.shape", "choice", "", "mq2007 | mslr", "under train or test: the data's shape", ""},
      {"ranksvm", "generator.queries", "integer", "1692 (mslr: 18919)", "1..10^8", "queries", ""},
      {"ranksvm", "generator.documents", "integer", "69623 (mslr: 2270296)", "queries..4x10^9", "documents", ""},
      {"ranksvm", "generator.features", "integer", "46 (mslr: 136)", "1..100000", "features", ""},
      {"ranksvm", "generator.seed", "integer", "1", ">= 0", "the generator's seed", ""},
  };
  static const std::vector<ConfigKey> ranksvm_rest = {
      {"ranksvm", "options.log", "true/false", "true", "", "print TRON's iterations on stderr", ""},
      {"ranksvm", "write.model", "true/false", "true", "", "`<name>_model.txt` (LIBLINEAR-ranksvm's format)", ""},
      {"ranksvm", "write.scores", "true/false", "false", "", "`<name>_scores.txt`: the documents' scores", ""},
      {"ranksvm", "write.pairs", "true/false", "false", "",
       "`<name>_pairs.txt`: the pair differences (LIBLINEAR input)", ""},
  };
  static const std::vector<ConfigKey> keys = [] {
    std::vector<ConfigKey> all = common;
    all = joined(joined(all, option_keys("schulze", schulze::option_fields())), schulze_write);
    all = joined(joined(all, option_keys("kemeny", kemeny::option_fields())), kemeny_write);
    all = joined(joined(all, coalition_input), option_keys("coalition", coalition::option_fields()));
    all = joined(joined(all, coalition_write), ranksvm_input);
    all = joined(joined(all, option_keys("ranksvm", ranksvm::option_fields())),
                 option_keys("ranksvm", ranksvm::evaluation_fields()));
    return joined(all, ranksvm_rest);
  }();
  return keys;
}

std::vector<std::string> keys_under(const std::string& section, const std::string& parent,
                                    const std::string& algorithm) {
  std::vector<std::string> names;
  const std::string prefix = parent.empty() ? "" : parent + ".";
  for (const ConfigKey& key : config_keys()) {
    if (key.section != section || key.path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = key.path.substr(prefix.size());
    if (rest.find('.') == std::string::npos && takes(key.algorithms, algorithm)) names.push_back(rest);
  }
  return names;
}

std::vector<std::string> former_keys_under(const std::string& section, const std::string& parent) {
  std::vector<std::string> names;
  const std::string prefix = parent.empty() ? "" : parent + ".";
  for (const ConfigKey& key : config_keys()) {
    if (key.section != section || key.path.compare(0, prefix.size(), prefix) != 0) continue;
    names.insert(names.end(), key.former_names.begin(), key.former_names.end());
  }
  return names;
}

namespace {

/// The key of a run entry at `path` (list indices left out) that `algorithm` takes, found by its
/// name or, with `former`, by a former name of its last part; null when none.
const ConfigKey* run_entry_key(const std::string& algorithm, const std::string& path, bool former) {
  const std::size_t dot = path.rfind('.');
  const std::string parent = dot == std::string::npos ? "" : path.substr(0, dot + 1);
  const std::string last = path.substr(parent.size());
  for (const ConfigKey& key : config_keys()) {
    const bool of_run = key.section == algorithm || key.section == "run" || key.section == "election input";
    if (!of_run || !takes(key.algorithms, algorithm)) continue;
    if (!former && key.path == path) return &key;
    if (former && key.path.compare(0, parent.size(), parent) == 0) {
      for (const std::string& name : key.former_names) {
        if (name == last) return &key;
      }
    }
  }
  return nullptr;
}

}  // namespace

std::string current_key_path(const std::string& algorithm, const std::string& path) {
  const std::size_t index = path.find('[');
  const std::string key = path.substr(0, index);
  const std::string rest = index == std::string::npos ? "" : path.substr(index);
  if (run_entry_key(algorithm, key, false)) return path;
  const ConfigKey* renamed = run_entry_key(algorithm, key, true);
  return renamed ? renamed->path + rest : path;
}

std::string key_default(const std::string& algorithm, const std::string& path) {
  const ConfigKey* key = run_entry_key(algorithm, path, false);
  return key ? key->fallback : "";
}

std::string config_reference() {
  const std::pair<const char*, const char*> sections[] = {
      {"config", "The config file"},
      {"run", "Every run (an entry of `runs:`)"},
      {"election input", "Schulze and Kemeny: input and sweep"},
      {"schulze", "Schulze: options and write"},
      {"kemeny", "Kemeny: options and write"},
      {"coalition", "Coalition structures: input, sweep, options and write"},
      {"ranksvm", "RankSVM: input, options and write (`generator` under `input.train` or `input.test`)"},
  };
  std::ostringstream out;
  out << "# Config reference\n\n"
      << "Every key a config may hold (written by `kollective help config` from the table the parsers\n"
      << "read their keys from). A default left empty means the key is required where its section\n"
      << "applies, or has no default; paths are within a run (`options.method` is `method:` under\n"
      << "`options:`); in a sweep, result file names gain the point's suffix.\n";
  for (const auto& [section, title] : sections) {
    out << "\n## " << title << "\n\n| key | type | default | range | meaning |\n| --- | --- | --- | --- | --- |\n";
    for (const ConfigKey& key : config_keys()) {
      if (key.section != section) continue;
      std::string meaning = key.meaning;
      if (!key.algorithms.empty() && section == std::string("run")) meaning += " (" + key.algorithms + ")";
      for (const std::string& former : key.former_names) meaning += " (formerly `" + former + "`)";
      const bool value = !key.fallback.empty() && key.fallback != "none" && key.fallback.find(' ') == std::string::npos;
      const std::string fallback = value ? "`" + key.fallback + "`" : key.fallback;  // a value, not words
      out << "| `" << key.path << "` | " << key.type << " | " << markdown_cell(fallback) << " | "
          << markdown_cell(key.range) << " | " << markdown_cell(meaning) << " |\n";
    }
  }
  return out.str();
}

}  // namespace kollective::driver
