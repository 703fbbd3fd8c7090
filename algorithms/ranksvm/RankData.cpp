#include "algorithms/ranksvm/RankData.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <functional>
#include <numeric>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_set>

#include "core/Error.hpp"
#include "core/Memory.hpp"
#include "core/Parse.hpp"
#include "core/Random.hpp"
#include "core/TextInput.hpp"

namespace kollective::ranksvm {

namespace {

/// One parsed line: label, qid (or -1), sparse features.
struct Line {
  double label = 0;
  std::int64_t qid = -1;
  std::vector<std::pair<int, double>> features;
};

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Labels are grades for NDCG: integers 0..max_label.
double parse_label(const std::string& token, const std::string& path, long number) {
  const std::optional<std::int64_t> label = parse_int64(token);
  const std::string_view digits = std::string_view(token).substr(token[0] == '+' ? 1 : 0);
  if (!label && all_digits(digits))
    fail_at(path, number, "label ", token, " is above ", max_label, ", the largest grade");
  if (!label || *label < 0) fail_at(path, number, "label '", token, "' is not a non-negative integer");
  if (*label > max_label) {
    fail_at(path, number, "label ", *label, " is above ", max_label, ", the largest grade (NDCG's gain 2^label - 1)");
  }
  return static_cast<double>(*label);
}

std::int64_t parse_qid(const std::string& token, const std::string& path, long number) {
  const std::optional<std::int64_t> qid = parse_int64(std::string_view(token).substr(4));
  if (!qid || *qid < 0) fail_at(path, number, "'", token, "' is not qid:<integer from 0 to 9223372036854775807>");
  return *qid;
}

std::pair<int, double> parse_feature(const std::string& token, const std::string& path, long number) {
  const std::size_t colon = token.find(':');
  const std::optional<std::int64_t> index =
      colon == std::string::npos ? std::nullopt : parse_int64(std::string_view(token).substr(0, colon));
  if (!index || *index < 1 || *index > max_feature_index) {
    fail_at(path, number, "'", token, "' is not index:value with an index from 1 to ", max_feature_index);
  }
  const std::optional<double> value = parse_decimal(std::string_view(token).substr(colon + 1));
  if (!value)
    fail_at(path, number, "feature ", *index, ": '", token.substr(colon + 1), "' is not a finite decimal number");
  return {static_cast<int>(*index), *value};
}

/// The document on a line, or nothing for a blank or comment line.
std::optional<Line> parse_line(const std::string& text, const std::string& path, long number) {
  const std::string content = text.substr(0, text.find('#'));
  std::vector<std::string> tokens;
  for (std::size_t at = 0;;) {
    at = content.find_first_not_of(" \t", at);
    if (at == std::string::npos) break;
    const std::size_t end = content.find_first_of(" \t", at);
    tokens.push_back(content.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end;
  }
  if (tokens.empty()) return std::nullopt;
  Line line;
  line.label = parse_label(tokens[0], path, number);
  std::size_t k = 1;
  if (k < tokens.size() && tokens[k].compare(0, 4, "qid:") == 0) line.qid = parse_qid(tokens[k++], path, number);
  for (int previous = 0; k < tokens.size(); ++k) {
    const auto feature = parse_feature(tokens[k], path, number);
    if (feature.first <= previous) {
      fail_at(path, number, "feature indices must increase (", feature.first, " after ", previous, ")");
    }
    previous = feature.first;
    line.features.push_back(feature);
  }
  return line;
}

/// Groups documents by qid (stable), fills the dense matrix and each document's file index.
RankData assemble(const std::vector<Line>& lines, int features, const std::string& path) {
  RankData data;
  data.docs = static_cast<std::int64_t>(lines.size());
  data.features = features;
  require_host_memory(checked_mul(data.docs, features, "documents x features") * 8,
                      "the feature matrix of '" + path + "' (" + std::to_string(data.docs) + " documents x " +
                          std::to_string(features) + " features)");
  std::vector<std::int64_t> order(lines.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return lines[a].qid < lines[b].qid; });
  data.labels.resize(lines.size());
  data.x.assign(static_cast<std::size_t>(data.docs) * features, 0.0);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    const Line& line = lines[order[d]];
    data.labels[d] = line.label;
    for (const auto& [index, value] : line.features) data.x[d * features + index - 1] = value;
    if (d == 0 || line.qid != lines[order[d - 1]].qid) {
      data.query_begin.push_back(d);
      data.query_ids.push_back(std::max<std::int64_t>(line.qid, 0));
    }
  }
  data.query_begin.push_back(data.docs);
  data.file_index = std::move(order);
  return data;
}

/// Notices queries whose lines are split across the file (qid 1, qid 2, qid 1): they are grouped
/// like SVMrank and LIBLINEAR group them, but a user who meant them as different queries should
/// hear of it, once per file.
class SplitQueries {
 public:
  void see(std::int64_t qid, long number) {
    if (qid == current_) return;
    finished_.insert(current_);
    if (finished_.count(qid) && places_++ == 0) first_qid_ = qid, first_line_ = number;
    current_ = qid;
  }
  void warn(const std::string& path) const {
    if (places_ == 0) return;
    std::fprintf(stderr,
                 "kollective: warning: %s:%ld: qid %lld resumes after other queries; its documents are grouped into "
                 "one query (as SVMrank and LIBLINEAR do)",
                 path.c_str(), first_line_, static_cast<long long>(first_qid_));
    if (places_ == 2) std::fprintf(stderr, "; 1 more place where a query resumes");
    if (places_ > 2)
      std::fprintf(stderr, "; %lld more places where a query resumes", static_cast<long long>(places_ - 1));
    std::fputc('\n', stderr);
  }

 private:
  std::unordered_set<std::int64_t> finished_;
  std::int64_t current_ = -1, first_qid_ = 0, places_ = 0;
  long first_line_ = 0;
};

}  // namespace

RankData read_letor(const std::string& path, int features) {
  LineReader reader(path, "ranking data");
  std::vector<Line> lines;
  SplitQueries split;
  std::string text;
  long first_line = 0;
  int largest = 0;
  while (reader.next(text)) {
    std::optional<Line> parsed = parse_line(text, path, reader.number());
    if (!parsed) continue;
    Line& line = *parsed;
    if (lines.empty()) first_line = reader.number();
    if (!lines.empty() && (line.qid < 0) != (lines.front().qid < 0)) {
      fail_at(path, reader.number(), line.qid < 0 ? "has no qid but line " : "has a qid but line ", first_line,
              line.qid < 0 ? " has one" : " has none", " (either every line has a qid or none)");
    }
    if (!line.features.empty()) {
      largest = std::max(largest, line.features.back().first);
      if (features > 0 && largest > features) {
        fail_at(path, reader.number(), "feature index ", largest, " exceeds the ", features, " features of the model");
      }
    }
    split.see(line.qid, reader.number());
    lines.push_back(std::move(line));
  }
  if (lines.empty()) fail_at(path, 0, "no documents (every line is blank or a comment)");
  split.warn(path);
  return assemble(lines, features > 0 ? features : std::max(largest, 1), path);
}

void write_letor(const RankData& data, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) {
      std::fprintf(out, "%.17g qid:%lld", data.labels[d], static_cast<long long>(data.query_ids[q]));
      for (int f = 0; f < data.features; ++f) {
        const double value = data.x[d * data.features + f];
        if (value != 0) std::fprintf(out, " %d:%.17g", f + 1, value);
      }
      std::fputc('\n', out);
    }
  }
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

RankData synthetic_letor(const std::string& shape, std::int64_t queries, std::int64_t docs, int features, std::uint64_t seed) {
  if (shape != "mq2007" && shape != "mslr") fail("unknown synthetic LETOR shape '", shape, "' (mq2007 or mslr)");
  if (queries < 1 || docs < queries) fail("synthetic LETOR data needs 1 <= queries <= documents (got ", queries, " and ", docs, ")");
  if (features < 1 || features > 100000) fail("synthetic LETOR data needs 1..100000 features (got ", features, ")");
  require_host_memory(checked_mul(docs, features, "documents x features") * 8, "the feature matrix");
  const int grades = shape == "mq2007" ? 3 : 5;
  HostRng rng(seed);
  // Heavy-tailed sizes: log-normal weights, a few giant queries, 1% single documents; the rest
  // are scaled so that the sizes add up to `docs`.
  std::vector<double> weight(queries);
  std::vector<std::int64_t> size(queries, 1);
  for (auto& w : weight) w = std::exp(1.1 * standard_normal(rng));
  for (std::int64_t q = 0; q < queries; q += 97) weight[q] = 0;                      // single documents
  for (std::int64_t q = 50; q < queries && docs > 40 * queries; q += 4001) weight[q] = -1;  // giants
  std::int64_t fixed = 0;
  for (std::int64_t q = 0; q < queries; ++q) {
    if (weight[q] < 0) size[q] = std::min<std::int64_t>(2500, docs / 4), weight[q] = 0;
    fixed += size[q];
  }
  if (fixed > docs) fixed = docs, std::fill(size.begin(), size.end(), 1);
  const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::int64_t left = docs - std::accumulate(size.begin(), size.end(), std::int64_t{0});
  for (std::int64_t q = 0; q < queries && total > 0; ++q) {
    const auto extra = static_cast<std::int64_t>(std::floor(weight[q] / total * static_cast<double>(docs - fixed)));
    size[q] += std::min(extra, left);
    left -= std::min(extra, left);
  }
  for (std::int64_t q = 0; left > 0; q = (q + 1) % queries) {
    if (weight[q] > 0 || total == 0) ++size[q], --left;
  }

  RankData data;
  data.docs = docs;
  data.features = features;
  data.labels.resize(docs);
  data.x.resize(static_cast<std::size_t>(docs) * features);
  // The task (feature loadings, scales and the hidden scoring vector) depends only on the shape
  // and the feature count, so sets drawn with different seeds are training and test sets of one
  // task. Features share a few latent factors (LETOR features are BM25, TF-IDF, ... of the same
  // fields: strongly correlated), and MSLR-like features span three decades of scale as the raw
  // MSLR-WEB30K values do; both make the Hessian ill-conditioned, as real data does.
  const int factors = std::min(features, 8);
  std::vector<double> hidden(features), loading(static_cast<std::size_t>(features) * factors), noise(features), scale(features);
  {
    HostRng task(0x4b6f6c6cull * static_cast<std::uint64_t>(features) + static_cast<std::uint64_t>(grades));
    for (int f = 0; f < features; ++f) {
      hidden[f] = 2 * uniform_unit(task) - 1;
      for (int k = 0; k < factors; ++k) loading[f * factors + k] = standard_normal(task) / std::sqrt(static_cast<double>(factors));
      noise[f] = 0.2 + 0.8 * uniform_unit(task);
      scale[f] = shape == "mslr" ? std::pow(10.0, std::floor(4 * uniform_unit(task)) - 1) : 1.0;
    }
  }
  std::int64_t d = 0;
  std::vector<double> latent(factors);
  for (std::int64_t q = 0; q < queries; ++q) {
    data.query_begin.push_back(d);
    data.query_ids.push_back(q + 1);
    const bool all_equal = q % 31 == 7;
    std::vector<double> score(size[q]);
    for (std::int64_t k = 0; k < size[q]; ++k) {
      for (auto& a : latent) a = standard_normal(rng);
      double s = 0;
      for (int f = 0; f < features; ++f) {
        double raw = noise[f] * std::sqrt(3.0) * (2 * uniform_unit(rng) - 1);
        for (int j = 0; j < factors; ++j) raw += loading[f * factors + j] * latent[j];
        const double level = std::floor(16.0 / (1.0 + std::exp(-raw))) / 16.0;  // quantized: ties in w'x
        data.x[(d + k) * features + f] = scale[f] * level;
        s += hidden[f] * level;
      }
      score[k] = s + 0.3 * std::sqrt(static_cast<double>(features) / 12.0) * standard_normal(rng);
    }
    // Grades by rank within the query: the top 5% get the highest grade, and so on down.
    std::vector<std::int64_t> order(size[q]);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return score[a] > score[b]; });
    static const double mq_cut[] = {0.1, 0.35}, mslr_cut[] = {0.02, 0.08, 0.25, 0.55};
    for (std::int64_t r = 0; r < size[q]; ++r) {
      const double at = static_cast<double>(r) / static_cast<double>(size[q]);
      int grade = 0;
      for (int g = 0; g < grades - 1; ++g) grade += at >= (grades == 3 ? mq_cut : mslr_cut)[g] ? 1 : 0;
      data.labels[d + order[r]] = all_equal ? 0.0 : static_cast<double>(grades - 1 - grade);
    }
    d += size[q];
  }
  data.query_begin.push_back(d);
  return data;
}

FeatureRange feature_range(const RankData& data) {
  FeatureRange range;
  range.low.assign(data.features, INFINITY);
  range.high.assign(data.features, -INFINITY);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    for (int f = 0; f < data.features; ++f) {
      range.low[f] = std::min(range.low[f], data.x[d * data.features + f]);
      range.high[f] = std::max(range.high[f], data.x[d * data.features + f]);
    }
  }
  return range;
}

void scale_features(RankData& data, const FeatureRange& range) {
  if (static_cast<int>(range.low.size()) != data.features) fail("feature scaling: the range has ", range.low.size(), " features, the data ", data.features);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    for (int f = 0; f < data.features; ++f) {
      const double width = range.high[f] - range.low[f];
      double& value = data.x[d * data.features + f];
      value = width > 0 ? (value - range.low[f]) / width : 0.0;
    }
  }
}

std::int64_t preference_pairs(const RankData& data) {
  std::int64_t pairs = 0;
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    std::map<double, std::int64_t> count;
    const std::int64_t n = data.query_begin[q + 1] - data.query_begin[q];
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) ++count[data.labels[d]];
    std::int64_t same = 0;
    for (const auto& entry : count) same += entry.second * entry.second;
    pairs += (n * n - same) / 2;
  }
  return pairs;
}

void write_model(const std::vector<double>& w, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  std::fprintf(out, "solver_type L2R_L2LOSS_RANKSVM\nnr_feature %zu\nbias -1\nw\n", w.size());
  for (double value : w) std::fprintf(out, "%.17g\n", value);
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

namespace {

/// A model header line: "key value"; checks the keys LIBLINEAR writes and keeps nr_feature.
void read_model_header(const std::string& path, long number, std::string_view line, std::int64_t& features) {
  const std::size_t blank = line.find_first_of(" \t");
  const std::string key(line.substr(0, blank));
  const std::string value(trim_blanks(blank == std::string_view::npos ? std::string_view() : line.substr(blank)));
  if (key != "solver_type" && key != "bias" && key != "nr_feature" && key != "nr_class" && key != "label") {
    fail_at(path, number, "unknown model header '", key, "'");
  }
  if (value.empty()) fail_at(path, number, "model header '", key, "' has no value");
  if (key == "solver_type" && value != "L2R_L2LOSS_RANKSVM") {
    fail_at(path, number, "solver_type ", value, " is not L2R_L2LOSS_RANKSVM");
  }
  if (key == "bias" && parse_decimal(value) != -1.0)
    fail_at(path, number, "bias ", value, " is not supported (only -1)");
  if (key == "nr_feature") {
    const auto count = parse_int64(value);
    if (!count || *count < 1 || *count > max_feature_index) {
      fail_at(path, number, "nr_feature '", value, "' is not an integer from 1 to ", max_feature_index);
    }
    features = *count;
  }
}

}  // namespace

std::vector<double> read_model(const std::string& path) {
  LineReader reader(path, "model");
  std::string text;
  std::int64_t features = -1;
  bool weights = false;
  std::vector<double> w;
  while (reader.next(text)) {
    const std::string_view line = trim_blanks(text);
    if (line.empty()) continue;
    if (!weights && line == "w") {
      if (features < 0) fail_at(path, reader.number(), "no nr_feature line before 'w'");
      weights = true;
    } else if (!weights) {
      read_model_header(path, reader.number(), line, features);
    } else {
      const std::optional<double> value = parse_decimal(line);
      if (!value) fail_at(path, reader.number(), "weight '", line, "' is not a finite decimal number");
      if (static_cast<std::int64_t>(w.size()) == features) {
        fail_at(path, reader.number(), "more than nr_feature = ", features, " weights");
      }
      w.push_back(*value);
    }
  }
  if (!weights) fail_at(path, 0, "no 'w' line");
  if (static_cast<std::int64_t>(w.size()) != features) {
    fail_at(path, 0, w.size(), " weights for nr_feature ", features);
  }
  return w;
}

void write_scores(const RankData& data, const std::vector<double>& scores, const std::string& path) {
  std::vector<double> in_file_order(scores.size());
  for (std::size_t d = 0; d < scores.size(); ++d) {
    if (!std::isfinite(scores[d]))
      fail("score ", scores[d], " of a document is not finite (feature values too large?)");
    in_file_order[data.file_index.empty() ? d : static_cast<std::size_t>(data.file_index[d])] = scores[d];
  }
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  for (double score : in_file_order) std::fprintf(out, "%.17g\n", score);
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

std::vector<double> predict(const RankData& data, const std::vector<double>& w) {
  if (static_cast<int>(w.size()) < data.features) fail("the model has ", w.size(), " weights, the data ", data.features, " features");
  std::vector<double> scores(data.docs);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    double s = 0;
    for (int f = 0; f < data.features; ++f) s += w[f] * data.x[d * data.features + f];
    scores[d] = s;
  }
  return scores;
}

}  // namespace kollective::ranksvm
