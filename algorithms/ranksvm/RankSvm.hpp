#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_HPP

/// \file RankSvm.hpp
/// Linear RankSVM with the L2 loss, f(w) = 1/2 w'w + C sum over preference pairs of
/// max(0, 1 - w'(x_i - x_j))^2, minimized from w = 0 by trust-region Newton (TRON) as LIBLINEAR
/// does it: conjugate gradient inside the trust region, stopping at ||r|| <= 0.1 ||g||, and the
/// outer stop ||grad f(w)|| <= eps ||grad f(0)||.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvmTron_Impl.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvm_Impl.hpp"
#include "kollective/core/Error.hpp"

namespace kollective::ranksvm {

/// Trains on `data` with the execution space `space`, and checks the result (check_result). `rows`, when given, is X
/// (docs x features, row-major, in data's document order), read in place with data.x left empty: a caller that holds X
/// grouped by query already need not copy it.
template <class ExecSpace>
Result train(const ExecSpace& space, const RankData& data, const Options& options, const double* rows = nullptr) {
  validate(options);
  check_data(data, rows);
  const double* x = rows ? rows : data.x.data();
  Result result = options.precision == Precision::float32
                      ? Impl::train_with<ExecSpace, float>(space, data, x, options)
                      : Impl::train_with<ExecSpace, double>(space, data, x, options);
  check_result(data, result);
  return result;
}

/// train(), with X's device copy and the per-document buffers taken from `workspace` and left
/// there for the next training of the same shape (documents, features, feature precision, label
/// levels; kollective::Workspace): for many trainings in a row, such as a sweep over C.
template <class ExecSpace>
Result train(const ExecSpace& space, const RankData& data, const Options& options,
             Workspace<typename ExecSpace::memory_space>& workspace, const double* rows = nullptr) {
  validate(options);
  check_data(data, rows);
  const double* x = rows ? rows : data.x.data();
  Result result = options.precision == Precision::float32
                      ? Impl::train_with<ExecSpace, float>(space, data, x, options, &workspace)
                      : Impl::train_with<ExecSpace, double>(space, data, x, options, &workspace);
  check_result(data, result);
  return result;
}

/// Trains on the caller's documents, per document: X's row (x: docs x features, double or float),
/// its label (y: integer grades 0..max_label, any arithmetic type) and its query id (qid:
/// integers). Views of any layout and memory space, const allowed; X is read in place where it is
/// row-major doubles on the host, the rest is copied there, grouped by query and checked
/// (group_by_query).
template <class ExecSpace, class XView, class YView, class QidView,
          class = std::enable_if_t<Kokkos::is_view<XView>::value>>
Result train(const ExecSpace& space, const XView& x, const YView& y, const QidView& qid, const Options& options = {}) {
  using XValue = typename XView::non_const_value_type;
  static_assert(XView::rank() == 2 && std::is_floating_point<XValue>::value,
                "ranksvm::train: X must be a rank-2 View (documents x features) of double or float");
  static_assert(Kokkos::is_view<YView>::value && YView::rank() == 1 &&
                    std::is_arithmetic<typename YView::non_const_value_type>::value,
                "ranksvm::train: y must be a rank-1 View of numbers (a label per document)");
  static_assert(Kokkos::is_view<QidView>::value && QidView::rank() == 1 &&
                    std::is_integral<typename QidView::non_const_value_type>::value,
                "ranksvm::train: qid must be a rank-1 View of integers (a query id per document)");
  const std::int64_t docs = x.extent(0);
  const int features = static_cast<int>(x.extent(1));
  if (y.extent(0) != x.extent(0) || qid.extent(0) != x.extent(0)) {
    fail("ranksvm::train: X has ", docs, " rows, y ", y.extent(0), " entries, qid ", qid.extent(0));
  }
  if (features == 0) fail("ranksvm::train: X has no features");
  validate(options);
  const double* rows = nullptr;
  std::vector<double> copied;
  constexpr bool host_rows = std::is_same<XValue, double>::value &&
                             std::is_same<typename XView::array_layout, Kokkos::LayoutRight>::value &&
                             Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename XView::memory_space>::accessible;
  if constexpr (host_rows) {
    if (x.span_is_contiguous()) rows = x.data();
  }
  if (!rows) {  // X copied to the host as row-major doubles (and, from a device, its mirror first)
    constexpr bool host_view = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename XView::memory_space>::accessible;
    require_host_memory(checked_mul(docs, features, "documents x features") * (8 + (host_view ? 0 : sizeof(XValue))),
                        "ranksvm::train: a host copy of X (" + std::to_string(docs) + " documents x " +
                            std::to_string(features) + " features)");
    const auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    copied.resize(static_cast<std::size_t>(docs) * features);
    for (std::int64_t d = 0; d < docs; ++d) {
      for (int f = 0; f < features; ++f) copied[d * features + f] = mirror(d, f);
    }
    rows = copied.data();
  }
  const auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const auto qid_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), qid);
  std::vector<double> labels(docs);
  std::vector<std::int64_t> qids(docs);
  for (std::int64_t d = 0; d < docs; ++d) {
    labels[d] = static_cast<double>(y_host(d));
    qids[d] = static_cast<std::int64_t>(qid_host(d));
  }
  const RankData data =
      group_by_query(rows, features, labels.data(), qids.data(), docs, options.precision == Precision::float32);
  return train(space, data, options, data.x.empty() ? rows : nullptr);
}

/// f, gradient and Hs at w through the device objective (for tests and benchmarks).
struct ObjectiveValues {
  double f = 0;
  std::vector<double> gradient, hessian_times_s;
};
template <class ExecSpace>
ObjectiveValues evaluate(const ExecSpace& space, const RankData& data, double C, const std::vector<double>& w,
                         const std::vector<double>& s, std::int64_t split_span = 0) {
  Impl::RankObjective<ExecSpace> objective(space, data, C, split_span);
  using Vector = typename Impl::RankObjective<ExecSpace>::Vector;
  auto upload = [&](const std::vector<double>& values) {
    Vector view(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "vector"), values.size());
    auto host = Kokkos::create_mirror_view(view);
    for (std::size_t k = 0; k < values.size(); ++k) host(k) = values[k];
    Kokkos::deep_copy(view, host);
    return view;
  };
  auto download = [](const Vector& view) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
    return std::vector<double>(host.data(), host.data() + host.extent(0));
  };
  const Vector w_view = upload(w), s_view = upload(s), g(Kokkos::view_alloc(space, "g"), w.size()),
               hs(Kokkos::view_alloc(space, "Hs"), w.size());
  ObjectiveValues values;
  values.f = objective.fun(w_view);
  objective.grad(w_view, g);
  objective.hv(s_view, hs);
  values.gradient = download(g);
  values.hessian_times_s = download(hs);
  return values;
}

}  // namespace kollective::ranksvm

#endif
