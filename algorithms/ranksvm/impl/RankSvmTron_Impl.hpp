#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_TRON_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_TRON_IMPL_HPP

/// \file RankSvmTron_Impl.hpp
/// Trust-region Newton (TRON) as LIBLINEAR does it (Lin, Weng and Keerthi 2008; LIBLINEAR's
/// tron.cpp constants), on the device objective of RankSvm_Impl.hpp.
/// Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrm2.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvmDistributed_Impl.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvm_Impl.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Timer.hpp"

namespace kollective::ranksvm {

namespace Impl {

/// TRON's vectors have one entry per feature, so they live on the host, where KokkosBlas runs
/// them without kernel launches and device syncs (on a GPU the CG loop's 6 launches and 3 syncs
/// per step would cost about a tenth of a Hessian product). The objective's calls copy their
/// argument to the device and their result back. `HostExec` works on them (vector_space).
template <class HostExec>
using HostVector = Kokkos::View<double*, Kokkos::Device<HostExec, Kokkos::HostSpace>>;

template <class Objective>
class HostCalls {
 public:
  /// Each call's result is this rank's part, summed over the ranks of `communicator`.
  HostCalls(Objective& objective, const comm::Communicator& communicator)
      : objective_(objective), communicator_(communicator) {
    const int n = objective.features();
    require_memory(memory_kind<typename Objective::Vector::memory_space>(), 2 * 8 * std::int64_t{n},
                   "RankSVM's argument and result vectors (" + std::to_string(n) + " features)");
    in_ = typename Objective::Vector(Kokkos::view_alloc(objective.space(), "Kollective::RankSvm::argument"), n);
    out_ = typename Objective::Vector(Kokkos::view_alloc(objective.space(), "Kollective::RankSvm::result"), n);
  }
  template <class Vector>
  double fun(const Vector& w) {
    Kokkos::deep_copy(in_, w);
    std::vector<double> f = {objective_.fun(in_)};
    sum_over_ranks(f);
    return f[0];
  }
  template <class Vector>
  void grad(const Vector& w, const Vector& g) {
    Kokkos::deep_copy(in_, w);
    objective_.grad(in_, out_);
    Kokkos::deep_copy(g, out_);
    sum_over_ranks(g);
  }
  template <class Vector>
  void hv(const Vector& s, const Vector& hs) {
    Kokkos::deep_copy(in_, s);
    objective_.hv(in_, out_);
    Kokkos::deep_copy(hs, out_);
    sum_over_ranks(hs);
  }
  double seconds_exchange() const { return seconds_exchange_; }

 private:
  void sum_over_ranks(std::vector<double>& values) {
    if (communicator_.size() == 1) return;
    WallTimer timer;
    communicator_.allreduce_sum(values);
    seconds_exchange_ += timer.seconds();
  }
  template <class Vector>
  void sum_over_ranks(const Vector& values) {
    if (communicator_.size() == 1) return;
    std::vector<double> copy(values.data(), values.data() + values.extent(0));
    sum_over_ranks(copy);
    std::copy(copy.begin(), copy.end(), values.data());
  }

  Objective& objective_;
  comm::Communicator communicator_;
  typename Objective::Vector in_, out_;
  double seconds_exchange_ = 0;
};

/// CG on H s = -g inside ||s|| <= delta (LIBLINEAR's trcg); returns the CG steps taken.
template <class Calls, class ExecSpace, class HostExec>
int trust_region_cg(Calls& objective, const ExecSpace& space, const HostExec& host, Result& result, double delta,
                    const HostVector<HostExec>& g, const HostVector<HostExec>& s, const HostVector<HostExec>& r,
                    const HostVector<HostExec>& d, const HostVector<HostExec>& hd) {
  Kokkos::deep_copy(host, s, 0.0);
  KokkosBlas::axpby(host, -1.0, g, 0.0, r);  // r = -g
  Kokkos::deep_copy(host, d, r);
  const double cg_tolerance = 0.1 * KokkosBlas::nrm2(host, g);
  double rtr = KokkosBlas::dot(host, r, r);
  int steps = 0;
  while (std::sqrt(rtr) > cg_tolerance) {
    kollective::Impl::interruption_point();
    ++steps;
    result.hv_total_s += time_fenced(space, [&] { objective.hv(d, hd); });
    double alpha = rtr / KokkosBlas::dot(host, d, hd);
    KokkosBlas::axpby(host, alpha, d, 1.0, s);
    if (KokkosBlas::nrm2(host, s) > delta) {  // step to the trust-region boundary along d
      KokkosBlas::axpby(host, -alpha, d, 1.0, s);
      const double std_ = KokkosBlas::dot(host, s, d), sts = KokkosBlas::dot(host, s, s),
                   dtd = KokkosBlas::dot(host, d, d);
      const double dsq = delta * delta, rad = std::sqrt(std_ * std_ + dtd * (dsq - sts));
      alpha = std_ >= 0 ? (dsq - sts) / (std_ + rad) : (rad - std_) / dtd;
      KokkosBlas::axpby(host, alpha, d, 1.0, s);
      KokkosBlas::axpby(host, -alpha, hd, 1.0, r);
      break;
    }
    KokkosBlas::axpby(host, -alpha, hd, 1.0, r);
    const double rnew = KokkosBlas::dot(host, r, r);
    KokkosBlas::axpby(host, 1.0, r, rnew / rtr, d);  // d = r + beta d
    rtr = rnew;
  }
  return steps;
}

template <class ExecSpace, class Feature>
Result train_with(const ExecSpace& space, const RankData& data, const double* x, const Options& options,
                  Workspace<typename ExecSpace::memory_space>* workspace = nullptr) {
  constexpr double eta0 = 1e-4, eta1 = 0.25, eta2 = 0.75, sigma1 = 0.25, sigma2 = 0.5, sigma3 = 4;
  Kokkos::Profiling::ScopedRegion region("Kollective::RankSvm::train");
  WallTimer setup;
  const comm::Communicator& communicator = options.communicator;
  const bool shared = communicator.size() > 1;
  const bool to_share = shared && !options.data_is_share;
  if (to_share) require_query_per_rank(data, communicator);
  // A share of a whole set in memory: its metadata copied, its block of X read in place.
  const QueryRange range = to_share ? share_queries(data, communicator.rank(), communicator.size()) : QueryRange{};
  const RankData share = to_share ? rank_share(data, range, false) : RankData();
  const double* rows = x + (to_share ? data.query_begin[range.first] * data.features : 0);
  RankObjective<ExecSpace, Feature> device_objective(space, to_share ? share : data, rows, options.C,
                                                     options.split_span, workspace);
  device_objective.set_regularized(communicator.rank() == 0);
  HostCalls<RankObjective<ExecSpace, Feature>> objective(device_objective, communicator);
  const int n = device_objective.features();
  Result result;
  result.setup_s = setup.seconds();
  require_host_memory(7 * 8 * std::int64_t{n}, "TRON's 7 vectors of " + std::to_string(n) + " features");
  const auto host = host_space_for(space);  // TRON's vectors live on the host
  using Vector = HostVector<std::decay_t<decltype(host)>>;
  auto vector = [&](const char* label) { return Vector(Kokkos::view_alloc(host, std::string(label)), n); };
  Vector w = vector("w"), w_new = vector("w_new"), g = vector("g"), s = vector("s"), r = vector("r"), d = vector("d"),
         hd = vector("Hd");
  if (options.measure_bandwidth) result.read_x_s = device_objective.time_pass_over_x();
  result.x_bytes = static_cast<double>(device_objective.x_bytes());
  auto fun = [&](const Vector& at) {
    double f = 0;
    result.fun_total_s += time_fenced(space, [&] { f = objective.fun(at); });
    ++result.function_evaluations;
    return f;
  };
  auto gradient = [&](const Vector& at) { result.grad_total_s += time_fenced(space, [&] { objective.grad(at, g); }); };

  double f = fun(w);
  gradient(w);
  double delta = KokkosBlas::nrm2(host, g);
  const double gnorm0 = delta;
  if (!std::isfinite(f) || !std::isfinite(gnorm0)) {  // no step could be measured: fail rather than spin
    fail("RankSVM: the objective or its gradient at w = 0 is not finite (f = ", f, ", |g| = ", gnorm0,
         "): feature values too large", options.precision == Precision::float32 ? " for float" : "",
         "? try scaling them (or a smaller C)");
  }
  result.initial_gradient_norm = gnorm0;
  double gnorm = gnorm0;
  result.stop = "max_iterations";
  if (gnorm <= options.eps * gnorm0) result.stop = "converged";
  for (int iteration = 1; iteration <= options.max_iterations && result.stop != "converged";) {
    const int steps = trust_region_cg(objective, space, host, result, delta, g, s, r, d, hd);
    result.cg_steps += steps;
    Kokkos::deep_copy(host, w_new, w);
    KokkosBlas::axpby(host, 1.0, s, 1.0, w_new);
    const double gs = KokkosBlas::dot(host, g, s);
    const double prered = -0.5 * (gs - KokkosBlas::dot(host, s, r));
    const double f_new = fun(w_new);
    const double actred = f - f_new;
    const double snorm = KokkosBlas::nrm2(host, s);
    if (iteration == 1) delta = std::min(delta, snorm);
    const double alpha = f_new - f - gs <= 0 ? sigma3 : std::max(sigma1, -0.5 * (gs / (f_new - f - gs)));
    if (actred < eta0 * prered) {
      delta = std::min(std::max(alpha, sigma1) * snorm, sigma2 * delta);
    } else if (actred < eta1 * prered) {
      delta = std::max(sigma1 * delta, std::min(alpha * snorm, sigma2 * delta));
    } else if (actred < eta2 * prered) {
      delta = std::max(sigma1 * delta, std::min(alpha * snorm, sigma3 * delta));
    } else {
      delta = std::max(delta, std::min(alpha * snorm, sigma3 * delta));
    }
    const bool accepted = actred > eta0 * prered;
    if (accepted) {
      Kokkos::deep_copy(host, w, w_new);
      f = f_new;
      gradient(w);
      gnorm = KokkosBlas::nrm2(host, g);
      result.iterations = iteration++;
    } else {
      fun(w);  // the objective keeps the order of the last fun(): restore it for w
    }
    if (options.reporter.log) {  // every rank takes the same steps: the caller picks which tells
      char line[160];
      std::snprintf(line, sizeof line, "tron iter %3d  f %.10e  |g| %.4e  cg %3d  delta %.4e  %s",
                    iteration - (accepted ? 1 : 0), f, gnorm, steps, delta, accepted ? "" : "(step rejected)");
      options.reporter.log(line);
    }
    if (gnorm <= options.eps * gnorm0) {
      result.stop = "converged";
    } else if (!std::isfinite(f_new)) {
      result.stop = "objective not finite at a step";
    } else if (f < -1.0e+32) {
      result.stop = "objective below -1e32";
    } else if (std::fabs(actred) <= 0 && prered <= 0) {
      result.stop = "no reduction predicted";
    } else if (std::fabs(actred) <= 1.0e-12 * std::fabs(f) && std::fabs(prered) <= 1.0e-12 * std::fabs(f)) {
      result.stop = "reductions below 1e-12 f";
    } else {
      continue;
    }
    break;
  }
  host.fence();  // w's last copy, before it is read
  result.converged = result.stop == "converged";
  const auto parts = device_objective.hv_parts();
  result.hv_x_s = parts.x_times_s;
  result.hv_sums_s = parts.sums;
  result.hv_xt_s = parts.x_transpose_times_u;
  result.objective = f;
  result.gradient_norm = gnorm;
  result.ranks = communicator.size();
  result.exchange_s = objective.seconds_exchange();
  result.w.assign(w.data(), w.data() + n);
  return result;
}

}  // namespace Impl

}  // namespace kollective::ranksvm

#endif
