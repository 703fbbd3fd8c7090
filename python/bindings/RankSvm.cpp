/// \file RankSvm.cpp
/// Linear RankSVM: training by TRON, LETOR files and models, and the ranking metrics, on numpy
/// arrays in the caller's document order (documents are grouped by qid inside, stably, as the
/// LETOR reader groups them, so a fit here takes the CLI's steps on the same file).

#include <Kokkos_Core.hpp>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/python/bindings/Bindings.hpp"
#include "kollective/python/bindings/Options.hpp"

namespace kollective::python {
namespace {

using Space = Kokkos::DefaultExecutionSpace;

/// The library's grouping by qid and checks (ranksvm::group_by_query), on numpy arrays.
ranksvm::RankData rank_data(const double* x, int features, const HostArray<double, 1>& labels,
                            const HostArray<std::int64_t, 1>& qids, bool single = false) {
  if (qids.shape(0) != labels.shape(0)) fail("qid has ", qids.shape(0), " entries, y has ", labels.shape(0));
  return ranksvm::group_by_query(x, features, labels.data(), qids.data(), static_cast<std::int64_t>(labels.shape(0)),
                                 single);
}

ranksvm::RankData training_data(const HostArray<double, 2>& x, const HostArray<double, 1>& y,
                                const HostArray<std::int64_t, 1>& qid, bool single) {
  if (x.shape(0) != y.shape(0)) fail("X has ", x.shape(0), " rows, y has ", y.shape(0), " entries");
  if (x.shape(1) == 0) fail("X has no features");
  return rank_data(x.data(), static_cast<int>(x.shape(1)), y, qid, single);
}

nb::dict train(const HostArray<double, 2>& x, const HostArray<double, 1>& y, const HostArray<std::int64_t, 1>& qid,
               const nb::dict& given, bool log) {
  ranksvm::Options options = options_from("ranksvm", ranksvm::option_fields(), given, ranksvm::check);
  if (log) options.reporter.log = stderr_reporter().log;
  const ranksvm::RankData data = training_data(x, y, qid, options.precision == Precision::float32);
  const double* rows = data.x.empty() ? x.data() : data.x.data();  // the caller's X, if grouped
  auto [result, seconds] = solve_timed([&] { return ranksvm::train(Space(), data, options, rows); });
  nb::dict out = result_dict(ranksvm::result_fields(), result);
  out["solve_s"] = seconds;
  out["converged"] = result.converged;
  const std::size_t features = result.w.size();
  out["w"] = to_numpy(std::move(result.w), {features});
  return out;
}

/// Pairwise accuracy, and NDCG@k and LETOR's mean NDCG per query (in increasing qid order).
nb::dict metrics(const HostArray<double, 1>& y, const HostArray<double, 1>& scores,
                 const HostArray<std::int64_t, 1>& qid, std::vector<int> ks, const std::string& convention) {
  if (scores.shape(0) != y.shape(0)) fail("scores has ", scores.shape(0), " entries, y has ", y.shape(0));
  const ranksvm::RankData data = rank_data(nullptr, 0, y, qid);
  const auto rule = parse_name(ranksvm::ndcg_convention_names, convention, "NDCG convention");
  std::vector<double> grouped(data.docs);
  for (std::int64_t d = 0; d < data.docs; ++d) {
    grouped[d] = scores(data.file_index[d]);
    if (std::isnan(grouped[d])) fail("scores[", data.file_index[d], "] is NaN");
  }
  nb::dict out;
  out["pairs"] = ranksvm::preference_pairs(data);
  out["pairs_correct"] = ranksvm::pairwise_correct(data, grouped);
  for (int k : ks) {
    if (k < 1) fail("NDCG positions must be at least 1, got ", k);
    std::vector<double> per_query = ranksvm::ndcg_at(data, grouped, k, rule);
    const std::size_t queries = per_query.size();
    out[("ndcg@" + std::to_string(k)).c_str()] = to_numpy(std::move(per_query), {queries});
  }
  std::vector<double> mean = ranksvm::mean_ndcg(data, grouped, rule);
  const std::size_t queries = mean.size();
  out["mean_ndcg"] = to_numpy(std::move(mean), {queries});
  return out;
}

/// A LETOR file's documents in file order: X, y and qid.
nb::tuple read(const std::string& path, int features) {
  ranksvm::RankData data = ranksvm::read_letor(path, features);
  for (const std::string& warning : data.warnings) {
    if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0) throw nb::python_error();
  }
  const std::size_t docs = data.docs, width = data.features;
  std::vector<double> x(docs * width), y(docs);
  std::vector<std::int64_t> qid(docs);
  for (std::int64_t q = 0; q < data.queries(); ++q) {
    for (std::int64_t d = data.query_begin[q]; d < data.query_begin[q + 1]; ++d) {
      const std::int64_t line = data.file_index[d];
      y[line] = data.labels[d];
      qid[line] = data.query_ids[q];
      std::copy_n(data.x.begin() + d * width, width, x.begin() + line * width);
    }
  }
  return nb::make_tuple(to_numpy(std::move(x), {docs, width}), to_numpy(std::move(y), {docs}),
                        to_numpy(std::move(qid), {docs}));
}

}  // namespace

void bind_ranksvm(nb::module_& m) {
  m.def("ranksvm_train", &train, nb::arg("x"), nb::arg("y"), nb::arg("qid"), nb::arg("options"), nb::arg("log"));
  m.def("ranksvm_options", [] { return option_table(describe(ranksvm::option_fields())); });
  m.def("ranksvm_fields", [] { return field_table(rules_of(ranksvm::result_fields())); });
  m.def("ranking_metrics", &metrics, nb::arg("y"), nb::arg("scores"), nb::arg("qid"), nb::arg("ks"),
        nb::arg("convention"));
  m.def("read_letor", &read, nb::arg("path"), nb::arg("features") = 0);
  m.def("write_model", &ranksvm::write_model, nb::arg("w"), nb::arg("path"));
  m.def("read_model", &ranksvm::read_model, nb::arg("path"));
}

}  // namespace kollective::python
