#ifndef KOLLECTIVE_ALGORITHMS_COALITION_HPP
#define KOLLECTIVE_ALGORITHMS_COALITION_HPP

/// \file Coalition.hpp
/// Optimal coalition structures by dynamic programming over subsets on the device:
/// f(C) = max(v(C), max over splits {C', C \ C'} of f(C') + f(C \ C')), by coalition size.
/// DP evaluates every split; IDP (Rahwan & Jennings) only the splits with sizes (c', c'') in
/// dep(c): c' >= c'', c' + c'' = c and (c' <= n - c or c = n), which still gives the optimum for the
/// grand coalition.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionTypes.hpp"
#include "kollective/algorithms/coalition/impl/Coalition_Impl.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"

namespace kollective::coalition {

namespace Impl {
/// The solve in options.precision (the DP's tables in double or float), its
/// result checked against the values (check_result): what every public solve runs.
template <class ExecSpace>
Result solve_checked(const ExecSpace& space, Values values, const Options& options,
                     Workspace<typename ExecSpace::memory_space>* workspace) {
  const Precision precision = solve_precision(options);
  Result result = precision == Precision::float32 ? solve<float>(space, values, options, workspace)
                                                  : solve<double>(space, values, options, workspace);
  result.precision = precision;
  check_result(values, result);
  return result;
}
/// validate_values() for values in the memory of `space`, checked there: the first value that is
/// not finite or too large is named.
template <class ExecSpace>
void validate_on(const ExecSpace& space, const Kokkos::View<const double*, typename ExecSpace::memory_space>& v,
                 const std::string& source, bool single_precision) {
  const double limit = value_limit(single_precision);
  std::uint64_t first_bad = ~std::uint64_t{0};
  Kokkos::parallel_reduce(
      "Kollective::Coalition::validate_values", Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(v.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t mask, std::uint64_t& bad) {
        const double value = v(mask);
        if (!(Kokkos::fabs(value) <= limit) || (mask == 0 && value != 0.0))  // NaN compares false
          bad = Kokkos::min(bad, static_cast<std::uint64_t>(mask));
      },
      Kokkos::Min<std::uint64_t>(first_bad));
  if (first_bad != ~std::uint64_t{0}) fail_value(source, first_bad, entry(v, first_bad), single_precision);
}

/// The solve of values the caller holds in the memory of `space`, with no host copy (IP's statistics
/// are taken on the device, and the closed parts it writes out read their values from there),
/// checked as every solve is: the structure's value, its coalitions' values fetched from the
/// device, is the optimum.
template <class ExecSpace>
Result solve_resident(const ExecSpace& space, const Kokkos::View<const double*, typename ExecSpace::memory_space>& v,
                      const Options& options, Workspace<typename ExecSpace::memory_space>* workspace) {
  const int agents = agents_of(v.extent(0), "coalition::solve");
  const Precision precision = solve_precision(options);
  validate_on(space, v, "coalition::solve", precision == Precision::float32);
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const Values values(agents, on_host ? v.data() : nullptr);  // null: the device's alone
  Result result = precision == Precision::float32 ? solve<float>(space, values, options, workspace, v)
                                                  : solve<double>(space, values, options, workspace, v);
  result.precision = precision;
  check_partition(agents, result.structure);
  double structure = 0;
  for (const std::uint64_t coalition : result.structure) structure += entry(v, coalition);
  check_structure_value(structure, result);
  return result;
}

/// solve_checked() of values a caller passes, validated first (validate_values) where their table
/// fits the space's memory; else the solve refuses them for their size, reading none.
template <class ExecSpace>
Result solve_validated(const ExecSpace& space, Values values, const Options& options,
                       Workspace<typename ExecSpace::memory_space>* workspace) {
  const auto table_bytes = static_cast<std::int64_t>(values.size() * 8);  // 0 for agents beyond 63
  if (memory_fits(memory_kind<typename ExecSpace::memory_space>(), table_bytes))
    validate_values(values, "coalition::solve", solve_precision(options) == Precision::float32);
  return solve_checked(space, values, options, workspace);
}

template <class Value>
Options in_precision(Options options) {
  static_assert(std::is_same<Value, double>::value || std::is_same<Value, float>::value, "double or float values");
  options.precision = std::is_same<Value, float>::value ? Precision::float32 : Precision::float64;
  return options;
}
}  // namespace Impl

/// Solves on the device with options.method, the DP's tables in options.precision, and checks
/// the result (a partition worth its optimum: check_result). `values`: a Game, or a caller's
/// array of 2^n values read in place (Values(n, pointer)), checked by validate_values.
template <class ExecSpace, class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
Result solve(const ExecSpace& space, Values values, const Options& options = {}) {
  return Impl::solve_validated(space, values, options, nullptr);
}

/// solve(), with the value table and the buffers of a shared solve taken from `workspace` and
/// left there for the next solve of the same size, precision, method and ranks
/// (kollective::Workspace): for many games in a row.
template <class ExecSpace, class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
Result solve(const ExecSpace& space, Values values, const Options& options,
             Workspace<typename ExecSpace::memory_space>& workspace) {
  return Impl::solve_validated(space, values, options, &workspace);
}

namespace Impl {
template <class ExecSpace, class ValuesView>
Result solve_view(const ExecSpace& space, const ValuesView& values, const Options& options,
                  Workspace<typename ExecSpace::memory_space>* workspace) {
  using Given = typename ValuesView::non_const_value_type;
  static_assert(ValuesView::rank() == 1, "coalition::solve: the values must be a rank-1 View of 2^n entries");
  static_assert(std::is_same<Given, double>::value || std::is_same<Given, float>::value,
                "coalition::solve: the values must be double or float");
  const int agents = Impl::agents_of(values.extent(0), "coalition::solve");
  constexpr bool resident =
      std::is_same<Given, double>::value &&
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ValuesView::memory_space>::accessible &&
      std::is_same<typename ValuesView::memory_space, typename ExecSpace::memory_space>::value;
  if constexpr (resident) {
    if (values.span_is_contiguous()) {
      return solve_resident(space, Kokkos::View<const double*, typename ExecSpace::memory_space>(values), options,
                            workspace);
    }
  }
  constexpr bool in_place =
      std::is_same<Given, double>::value &&
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ValuesView::memory_space>::accessible;
  const double* read = nullptr;
  std::vector<double> copied;
  if constexpr (in_place) {
    if (values.span_is_contiguous()) read = values.data();
  }
  if (!read) {  // copied to the host as doubles (and, from a device, its mirror first)
    constexpr bool host_view =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ValuesView::memory_space>::accessible;
    require_host_memory(static_cast<std::int64_t>(values.extent(0)) * (8 + (host_view ? 0 : sizeof(Given))),
                        "coalition::solve: a host copy of the values of " + std::to_string(agents) + " agents");
    const auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    copied.resize(mirror.extent(0));
    for (std::size_t mask = 0; mask < copied.size(); ++mask) copied[mask] = mirror(mask);
    read = copied.data();
  }
  const Values game(agents, read);
  validate_values(game, "coalition::solve", solve_precision(options) == Precision::float32);
  return solve_checked(space, game, options, workspace);
}
}  // namespace Impl

/// solve() on the caller's values: a rank-1 View of the 2^n values v[mask] of a game of n agents
/// (v[0] = 0), double or float, any memory space, const allowed; checked by validate_values.
/// Read in place where they are contiguous doubles on the host or in the memory of `space` (there
/// the solver makes no host copy for dp and idp), else copied to the host first.
template <class ExecSpace, class ValuesView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value && Kokkos::is_view<ValuesView>::value>>
Result solve(const ExecSpace& space, const ValuesView& values, const Options& options = {}) {
  return Impl::solve_view(space, values, options, nullptr);
}

/// The same, with the value table and a shared solve's buffers kept in `workspace`.
template <class ExecSpace, class ValuesView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value && Kokkos::is_view<ValuesView>::value>>
Result solve(const ExecSpace& space, const ValuesView& values, const Options& options,
             Workspace<typename ExecSpace::memory_space>& workspace) {
  return Impl::solve_view(space, values, options, &workspace);
}

/// The table of a value function, made in the memory of `space`: values(mask) = v(mask) for every
/// non-empty coalition of `agents` agents, values(0) = 0. `v` is called on the device, in
/// parallel: a Kokkos lambda or a functor whose `KOKKOS_FUNCTION double operator()(std::uint64_t
/// mask) const` depends on nothing but the mask (bit i: agent i).
template <class ExecSpace, class ValueFunction>
Kokkos::View<double*, typename ExecSpace::memory_space> value_table(const ExecSpace& space, int agents,
                                                                    const ValueFunction& v) {
  if (agents < 1 || agents > max_agents) fail("coalition::value_table: ", agents, " agents outside 1..", max_agents);
  require_memory(memory_kind<typename ExecSpace::memory_space>(), std::int64_t{8} << agents,
                 "the coalition values of " + std::to_string(agents) + " agents");
  Kokkos::View<double*, typename ExecSpace::memory_space> values(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::coalition::value_table"),
      std::size_t{1} << agents);
  Kokkos::parallel_for(
      "Kollective::coalition::value_table", Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(values.size())),
      KOKKOS_LAMBDA(const std::int64_t mask) {
        values(mask) = mask == 0 ? 0.0 : static_cast<double>(v(static_cast<std::uint64_t>(mask)));
      });
  return values;
}

/// A value file ("text" or "binary", CoalitionIO.hpp) read into the memory of `space`: a batch of
/// values at a time (text: parsed by the host threads) is copied there as it is read, so the host
/// holds one batch (about 256 MiB), not the table. Checked as read_game checks a file, the values'
/// range on the device (validate_on). For a table that does not fit the host's memory.
template <class ExecSpace>
Kokkos::View<double*, typename ExecSpace::memory_space> read_values(const ExecSpace& space, const std::string& path,
                                                                    const std::string& format) {
  using Memory = typename ExecSpace::memory_space;
  Impl::ValueFileReader reader(path, format);
  require_memory(memory_kind<Memory>(), reader.slots() * 8, "the coalition values in '" + path + "'");
  Kokkos::View<double*, Memory> values(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::coalition::values"),
      static_cast<std::size_t>(reader.slots()));
  const std::int64_t capacity = std::max(reader.batch_limit(), std::int64_t{1} << 25);
  Kokkos::View<double*, Kokkos::HostSpace> batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "batch"),
                                                 static_cast<std::size_t>(std::min(capacity, reader.slots())));
  double first_value = 0;
  for (std::int64_t done = 0, got = 0; (got = reader.read(batch.data(), batch.extent(0))) > 0; done += got) {
    if (done == 0) first_value = batch(0);
    const std::pair<std::int64_t, std::int64_t> into(done, done + got), from(0, got);
    Kokkos::deep_copy(space, Kokkos::subview(values, into), Kokkos::subview(batch, from));
    space.fence("Kollective::coalition: a batch of values copied");  // before the batch is read again
  }
  const std::size_t count = std::size_t{1} << reader.finish(first_value);
  if (count != values.extent(0)) {  // trailing blank lines: the table without their slots
    require_memory(memory_kind<Memory>(), static_cast<std::int64_t>(count * 8),
                   "the coalition values in '" + path + "' once more, without its trailing blank lines");
    Kokkos::View<double*, Memory> exact(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Kollective::coalition::values"), count);
    Kokkos::deep_copy(space, exact, Kokkos::subview(values, std::pair<std::size_t, std::size_t>(0, count)));
    values = exact;
  }
  Impl::validate_on(space, Kokkos::View<const double*, Memory>(values), path, false);
  return values;
}

/// solve() of a value function v over `agents` agents (value_table, then solved where it was made,
/// with no host copy), for a game given by a formula rather than a table.
template <class ExecSpace, class ValueFunction,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                                   std::is_invocable_r_v<double, const ValueFunction&, std::uint64_t>>>
Result solve(const ExecSpace& space, int agents, const ValueFunction& v, const Options& options = {}) {
  return solve(space, value_table(space, agents, v), options);
}

/// The former spelling, the precision as a template argument (double or float): overrides
/// options.precision. Kept for a release (CHANGELOG.md).
template <class Value, class ExecSpace, class Input>
[[deprecated("set Options::precision and call coalition::solve(space, values, options)")]] Result solve(
    const ExecSpace& space, const Input& values, const Options& options = {}) {
  return solve(space, values, Impl::in_precision<Value>(options));
}
template <class Value, class ExecSpace>
[[deprecated("set Options::precision and call coalition::solve(space, values, options, workspace)")]] Result solve(
    const ExecSpace& space, Values values, const Options& options,
    Workspace<typename ExecSpace::memory_space>& workspace) {
  return solve(space, values, Impl::in_precision<Value>(options), workspace);
}

/// Splits the device solver evaluates (DP: split_count; IDP: IDP's splits and some more; IP none;
/// auto at most IDP's).
inline double evaluated_splits(int n, Method method) {
  return method == Method::ip ? 0.0 : Impl::evaluated_splits(n, method != Method::dp);
}
/// Bytes the solver's high splits read as blocks, in the 16-byte packets that hold entries their
/// splits use (the traffic the caches and memory serve).
inline double block_read_bytes(int n, Method method, int value_bytes) {
  return method == Method::ip ? 0.0 : Impl::block_read_bytes(n, method != Method::dp, value_bytes);
}

}  // namespace kollective::coalition

#endif
