#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_HPP

/// \file RankSvm.hpp
/// Linear RankSVM with the L2 loss, f(w) = 1/2 w'w + C sum over preference pairs of
/// max(0, 1 - w'(x_i - x_j))^2, minimized from w = 0 by trust-region Newton (TRON) as LIBLINEAR
/// does it: conjugate gradient inside the trust region, stopping at ||r|| <= 0.1 ||g||, and the
/// outer stop ||grad f(w)|| <= eps ||grad f(0)||.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "algorithms/ranksvm/RankSvmTypes.hpp"
#include "algorithms/ranksvm/impl/RankSvmTron_Impl.hpp"
#include "algorithms/ranksvm/impl/RankSvm_Impl.hpp"

namespace kollective::ranksvm {

/// Trains on `data` with the execution space `space`. `rows`, when given, is X (docs x features,
/// row-major, in data's document order), read in place with data.x left empty: a caller that
/// holds X grouped by query already need not copy it.
template <class ExecSpace>
TrainResult train(const ExecSpace& space, const RankData& data, const TrainOptions& options,
                  const double* rows = nullptr) {
  const double* x = rows ? rows : data.x.data();
  return options.float_features ? Impl::train_with<ExecSpace, float>(space, data, x, options)
                                : Impl::train_with<ExecSpace, double>(space, data, x, options);
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
    Vector view("vector", values.size());
    auto host = Kokkos::create_mirror_view(view);
    for (std::size_t k = 0; k < values.size(); ++k) host(k) = values[k];
    Kokkos::deep_copy(view, host);
    return view;
  };
  auto download = [](const Vector& view) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
    return std::vector<double>(host.data(), host.data() + host.extent(0));
  };
  const Vector w_view = upload(w), s_view = upload(s), g("g", w.size()), hs("Hs", w.size());
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
