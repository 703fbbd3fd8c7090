#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_set>
#include <filesystem>
#include <map>
#include <set>

#include "kollective/algorithms/ranksvm/impl/RankSvmDistributed_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/TextInput.hpp"

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
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t a, std::int64_t b) { return lines[a].qid < lines[b].qid; });
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
  /// The warning for `path`, or "" when every query is in one run of lines.
  std::string warning(const std::string& path) const {
    if (places_ == 0) return "";
    std::string text = path + ":" + std::to_string(first_line_) + ": qid " + std::to_string(first_qid_) +
                       " resumes after other queries; its documents are grouped into one query (as SVMrank and "
                       "LIBLINEAR do)";
    if (places_ == 2) text += "; 1 more place where a query resumes";
    if (places_ > 2) text += "; " + std::to_string(places_ - 1) + " more places where a query resumes";
    return text;
  }

 private:
  std::unordered_set<std::int64_t> finished_;
  std::int64_t current_ = -1, first_qid_ = 0, places_ = 0;
  long first_line_ = 0;
};

}  // namespace

namespace {

/// The documents of the lines `reader` gives, checked line by line; `largest` gets the largest
/// feature index seen.
std::vector<Line> read_documents(LineReader& reader, int features, int& largest, SplitQueries& split) {
  const std::string& path = reader.path();
  std::vector<Line> lines;
  std::string text;
  long first_line = 0;
  largest = 0;
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
        fail_at(path, reader.number(), "feature index ", largest, " exceeds the ", features,
                " features expected (the model's, or the training set's)");
      }
    }
    split.see(line.qid, reader.number());
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

RankData read_letor(const std::string& path, int features) {
  LineReader reader(path, "ranking data");
  SplitQueries split;
  int largest = 0;
  const std::vector<Line> lines = read_documents(reader, features, largest, split);
  if (lines.empty()) fail_at(path, 0, "no documents (every line is blank or a comment)");
  RankData data = assemble(lines, features > 0 ? features : std::max(largest, 1), path);
  if (const std::string warning = split.warning(path); !warning.empty()) data.warnings.push_back(warning);
  return data;
}

namespace {

/// A run of consecutive document lines with the same qid text, as a rank's scan of its bytes
/// finds it: a query, unless the file splits one (then the text repeats in another run).
struct Run {
  std::int64_t begin = 0, end = 0;  ///< bytes; comment lines after the run's documents included
  std::int64_t docs = 0, load = 0;  ///< documents; preference pairs plus documents
  std::int64_t line = 0;            ///< number of the line at `begin`, within the rank's bytes, then in the file
  std::string qid;                  ///< the qid token's text ("" on a line without one)
};

/// The label and qid texts of a document line, unchecked (the scan only places queries; the rank
/// that reads a line checks it); false for a blank or comment line.
bool glance(const std::string& text, std::string& label, std::string& qid) {
  std::istringstream tokens(text.substr(0, text.find('#')));
  if (!(tokens >> label)) return false;
  qid.clear();
  std::string second;
  if (tokens >> second && second.compare(0, 4, "qid:") == 0) qid = second.substr(4);
  return true;
}

/// The first line start at or after byte b where a document line's qid differs from that of the
/// first document line at or after b: where a rank's bytes begin (the same on every rank).
std::int64_t query_boundary(const std::string& path, std::int64_t b, std::int64_t size) {
  if (b <= 0 || b >= size) return std::clamp<std::int64_t>(b, 0, size);
  LineReader reader(path, "ranking data", b - 1, -1, 0);
  std::string text, label, qid, first;
  reader.next(text);  // the rest of the line holding byte b - 1
  bool seen = false;
  while (reader.next(text)) {
    if (!glance(text, label, qid)) continue;
    if (seen && qid != first) return reader.start();
    if (!seen) first = qid, seen = true;
  }
  return size;
}

/// This rank's runs of bytes [begin, end), and its line count in `lines`.
std::vector<Run> scan_runs(const std::string& path, std::int64_t begin, std::int64_t end, std::int64_t& lines) {
  LineReader reader(path, "ranking data", begin, end, 0);
  std::vector<Run> runs;
  std::map<std::string, std::int64_t> grades;  // of the current run
  std::string text, label, qid;
  auto close = [&] {
    std::int64_t same = 0;
    for (const auto& [grade, count] : grades) same += count * count;
    runs.back().load = (runs.back().docs * runs.back().docs - same) / 2 + runs.back().docs;
  };
  while (reader.next(text)) {
    if (!glance(text, label, qid)) continue;
    if (runs.empty() || runs.back().qid != qid) {
      if (!runs.empty()) runs.back().end = reader.start(), close();
      runs.push_back({reader.start(), 0, 0, 0, reader.number(), qid});
      grades.clear();
    }
    ++runs.back().docs;
    ++grades[label];
  }
  lines = reader.number();
  if (runs.empty()) return runs;
  close();
  runs.front().begin = begin, runs.front().line = 1;
  runs.back().end = end;
  return runs;
}

/// Every rank's runs in file order (their lines numbered in the file), or nothing when some rank
/// could not scan its bytes.
std::vector<Run> all_runs(const std::string& path, const comm::Communicator& communicator) {
  const int rank = communicator.rank(), ranks = communicator.size();
  std::string mine;  // "lines" then per run: begin end docs load line qid, one field per line
  try {
    const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path));
    std::int64_t lines = 0;
    const std::int64_t begin = query_boundary(path, size * rank / ranks, size);
    const std::int64_t end = query_boundary(path, size * (rank + 1) / ranks, size);
    const std::vector<Run> runs = scan_runs(path, begin, end, lines);
    mine = std::to_string(lines) + "\n";
    for (const Run& run : runs) {
      for (std::int64_t field : {run.begin, run.end, run.docs, run.load, run.line})
        mine += std::to_string(field) + "\n";
      mine += run.qid + "\n";
    }
  } catch (const std::exception&) {
    mine.clear();  // the whole read reports it, with its line
  }
  std::vector<Run> runs;
  std::int64_t lines_before = 0;
  for (const std::string& part : communicator.allgather(mine)) {
    if (part.empty()) return {};
    std::istringstream fields(part);
    std::int64_t lines = 0;
    fields >> lines;
    Run run;
    while (fields >> run.begin >> run.end >> run.docs >> run.load >> run.line) {
      fields.ignore(1);
      std::getline(fields, run.qid);
      run.line += lines_before;
      runs.push_back(run);
    }
    lines_before += lines;
  }
  return runs;
}

/// The first run of each rank and one past the last, contiguous, balanced by load and none empty,
/// or nothing when the runs cannot be shared so (no qids, a query split across the file, fewer
/// queries than ranks).
std::vector<std::size_t> share_runs(const std::vector<Run>& runs, int ranks) {
  std::set<std::string> qids;
  std::int64_t total = 0;
  for (const Run& run : runs) {
    if (run.qid.empty() || !qids.insert(run.qid).second) return {};
    total += run.load;
  }
  std::vector<std::size_t> first(ranks + 1, runs.size());
  std::int64_t before = 0;  // run i goes to the rank whose share of the load holds its middle
  for (std::size_t i = 0, r = 0; i < runs.size(); before += runs[i++].load) {
    const auto owner = static_cast<std::size_t>((2 * before + runs[i].load) * ranks / (2 * total));
    while (r <= owner) first[r++] = i;
  }
  if (runs.size() < static_cast<std::size_t>(ranks)) return {};
  for (int r = 1; r < ranks; ++r) {  // a heavy query must not leave a rank without any
    first[r] = std::clamp(first[r], first[r - 1] + 1, runs.size() - static_cast<std::size_t>(ranks - r));
  }
  return first;
}

/// Whether the numeric qids of the ranks' shares all differ ("qid:1" and "qid:01" are one query).
bool qids_differ(const RankData& share, const comm::Communicator& communicator) {
  std::vector<std::int64_t> qids = communicator.allgather_values(share.query_ids);
  std::sort(qids.begin(), qids.end());
  return std::adjacent_find(qids.begin(), qids.end()) == qids.end();
}

}  // namespace

RankData read_letor_share(const std::string& path, const comm::Communicator& communicator, int features) {
  check_input_file(path, "ranking data");
  const int rank = communicator.rank(), ranks = communicator.size();
  const std::vector<Run> runs = all_runs(path, communicator);
  const std::vector<std::size_t> first = runs.empty() ? std::vector<std::size_t>() : share_runs(runs, ranks);
  auto whole = [&](const char* why) {
    RankData data = communicator.on_every_rank([&] { return read_letor(path, features); });
    Impl::require_query_per_rank(data, communicator);
    RankData share = Impl::rank_share(data, rank, ranks);
    share.warnings = std::move(data.warnings);
    share.warnings.push_back(path + ": every rank reads the whole file (" + why + ")");
    return share;
  };
  if (first.empty())
    return whole("no qids, a query split across the file, fewer queries than ranks, or a line it could not scan");
  const std::size_t a = first[rank], b = first[rank + 1];
  int largest = 0;
  std::vector<Line> lines = communicator.on_every_rank([&] {
    LineReader reader(path, "ranking data", runs[a].begin, runs[b - 1].end, static_cast<long>(runs[a].line - 1));
    SplitQueries split;  // runs hold no split query
    return read_documents(reader, features, largest, split);
  });
  std::vector<std::int64_t> most{largest};
  communicator.allreduce_max(most);
  RankData share = communicator.on_every_rank(  // its memory check may fail on one rank only
      [&] { return assemble(lines, features > 0 ? features : std::max<int>(static_cast<int>(most[0]), 1), path); });
  if (!qids_differ(share, communicator)) return whole("a qid written two ways, such as 1 and 01");
  std::int64_t docs_before = 0;
  for (std::size_t i = 0; i < a; ++i) docs_before += runs[i].docs;
  for (std::int64_t& index : share.file_index) index += docs_before;
  return share;
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

void write_model(const std::vector<double>& w, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) fail("cannot write '", path, "'");
  std::fprintf(out, "solver_type L2R_L2LOSS_RANKSVM\nnr_feature %zu\nbias -1\nw\n", w.size());
  for (double value : w) std::fprintf(out, "%.17g\n", value);
  if (std::fclose(out) != 0) fail("error while writing '", path, "'");
}

namespace {

/// A model header line: "key value"; checks the keys LIBLINEAR writes and keeps nr_feature.
/// One header line; `seen` holds the keys of the lines before it (each may appear once).
void read_model_header(const std::string& path, long number, std::string_view line, std::int64_t& features,
                       std::map<std::string, long>& seen) {
  const std::size_t blank = line.find_first_of(" \t");
  const std::string key(line.substr(0, blank));
  const std::string value(trim_blanks(blank == std::string_view::npos ? std::string_view() : line.substr(blank)));
  if (key != "solver_type" && key != "bias" && key != "nr_feature" && key != "nr_class" && key != "label") {
    fail_at(path, number, "unknown model header '", key, "'");
  }
  if (const auto earlier = seen.find(key); earlier != seen.end()) {
    fail_at(path, number, "model header '", key, "' repeats line ", earlier->second);
  }
  seen.emplace(key, number);
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
  std::map<std::string, long> headers;  // key: its line
  while (reader.next(text)) {
    const std::string_view line = trim_blanks(text);
    if (line.empty()) continue;
    if (!weights && line == "w") {
      if (features < 0) fail_at(path, reader.number(), "no nr_feature line before 'w'");
      weights = true;
    } else if (!weights) {
      read_model_header(path, reader.number(), line, features, headers);
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

}  // namespace kollective::ranksvm
