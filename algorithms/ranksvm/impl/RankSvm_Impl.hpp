#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_RANKSVM_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_RANKSVM_IMPL_HPP

/// \file RankSvm_Impl.hpp
/// The L2-loss RankSVM objective on the device, through per-query counts and sums (Lee & Lin):
/// with z = Xw, for every document i
///   l+_i = #{j: y_j > y_i, z_j < z_i + 1},  l-_i = #{j: y_j < y_i, z_j > z_i - 1}
/// and the sums gamma+-_i of z_j (alpha+-_i of v_j = (Xs)_j for Hessian products) over the same
/// sets; pairs are never formed. One team per query (several for a query larger than the split
/// span) sorts its documents by (label level, z) (a bitonic network over the query's slice of a
/// workspace, padded to a power of two). In that
/// order each level is a run sorted by z, so the set of level l in l+_i or l-_i is one range of
/// positions, found by binary search. One end of each range is where a level starts (kept per
/// query); fun() keeps the other, varying end per document and level. A sum
/// over the sets is then one exclusive scan of the query's values in sorted order (a team per
/// query) plus, per document, one difference of prefixes per level (a thread per document). X.v
/// and X'.u are the kernels of RankSvmFeatures_Impl.hpp.
/// Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvmBuffers_Impl.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvmFeatures_Impl.hpp"
#include "kollective/algorithms/ranksvm/impl/RankSvmQueries_Impl.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Timer.hpp"
#include "kollective/core/Workspace.hpp"

namespace kollective::ranksvm::Impl {

/// Feature: the type X is stored in on the device (double, or float to halve its traffic;
/// products and sums are always double).
template <class ExecSpace, class Feature = double>
class RankObjective {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Vector = Kokkos::View<double*, Memory>;
  using Positions = Kokkos::View<int**, Kokkos::LayoutLeft, Memory>;

  /// Sorted positions per team for a large query, which several teams share (a power of two);
  /// smaller queries have a team each.
  static constexpr std::int64_t default_split_span = runs_on_host<ExecSpace> ? std::int64_t{1} << 16 : 4096;

  /// split_span: positions per team of a large query (a power of two >= 2; 0: the default).
  RankObjective(const ExecSpace& space, const RankData& data, double C, std::int64_t split_span = 0)
      : RankObjective(space, data, data.x.data(), C, split_span) {}
  /// `rows`: data's X, row-major, where it lives: a share of a larger set leaves data.x empty
  /// and passes its block of the set's X, read in place.
  /// `buffers`: a workspace (kollective::Workspace) to take X and the per-document buffers from
  /// and leave them in, or none: allocated for this objective alone.
  RankObjective(const ExecSpace& space, const RankData& data, const double* rows, double C, std::int64_t split_span = 0,
                kollective::Workspace<Memory>* buffers = nullptr)
      : space_(space), C_(C), span_(split_span > 0 ? split_span : default_split_span) {
    if (!(C > 0) || !std::isfinite(C)) fail("RankSVM: C must be a positive number (got ", C, ")");
    if (span_ < 2 || padded(span_) != span_)
      fail("RankSVM: the split span must be a power of two of at least 2 (got ", span_, ")");
    docs_ = data.docs;
    features_ = data.features;
    queries_ = data.queries();
    // Workspace positions are int: the slices span 2 x documents.
    if (docs_ > std::numeric_limits<int>::max() / 2)
      fail("RankSVM supports up to ", std::numeric_limits<int>::max() / 2, " documents (got ", docs_, ")");
    const LabelLevels labels = label_levels(data.labels);
    levels_ = labels.count;
    typename FeatureMatrix<ExecSpace, Feature>::Matrix held_x;  // X's storage in the workspace, if given one
    std::tie(held_x, d_) = training_buffers<Feature>(space_, buffers, docs_, features_, levels_);
    x_ = FeatureMatrix<ExecSpace, Feature>(space_, data, rows, held_x);
    level_ = upload<int>("Kollective::RankSvm::level", labels.of_document);
    begin_ = upload<std::int64_t>("Kollective::RankSvm::query_begin", data.query_begin);
    std::vector<int> doc_query(docs_);
    for (std::int64_t q = 0; q < queries_; ++q) {
      std::fill(doc_query.begin() + data.query_begin[q], doc_query.begin() + data.query_begin[q + 1],
                static_cast<int>(q));
    }
    doc_query_ = upload<int>("Kollective::RankSvm::doc_query", doc_query);
    make_units(data.query_begin);
    level_start_ = Positions(Kokkos::view_alloc(space_, "Kollective::RankSvm::level_start"), queries_, levels_ + 1);
  }

  /// Without the regularizer (0.5 w'w and its derivatives), the objective is this rank's part
  /// of a sum over ranks, to which one rank adds the regularizer.
  void set_regularized(bool regularized) { regularizer_ = regularized ? 1.0 : 0.0; }
  int features() const { return features_; }
  std::int64_t docs() const { return docs_; }
  const ExecSpace& space() const { return space_; }

  /// f(w); sorts z = Xw per query and keeps, for grad() and hv() at this w, the sorted order,
  /// every document's ranges and counts, and r (the gradient's per-document factor).
  double fun(const Vector& w) {
    x_.times(w, d_.z);
    sort_queries();
    find_ranges();
    auto z = d_.z, r = d_.r, count = d_.count, balance = d_.balance, sum = d_.sum;
    double loss = 0;
    Kokkos::parallel_reduce(
        "Kollective::RankSvm::fun", Kokkos::RangePolicy<ExecSpace>(space_, 0, docs_),
        KOKKOS_LAMBDA(const std::int64_t i, double& total) {
          // z_i((l+ + l-) z_i - gamma - 2(l- - l+)) + l-, with l- = (count + balance) / 2
          total += z(i) * (count(i) * z(i) - sum(i) - 2 * balance(i)) + (count(i) + balance(i)) / 2;
          r(i) = count(i) * z(i) - sum(i) - balance(i);
        },
        loss);
    return 0.5 * regularizer_ * KokkosBlas::dot(space_, on_space(w), on_space(w)) + C_ * loss;
  }

  /// g = w + 2C X'r at the w of the last fun().
  void grad(const Vector& w, const Vector& g) {
    x_.transpose_times(d_.r, g);
    KokkosBlas::axpby(space_, regularizer_, on_space(w), 2 * C_, on_space(g));
  }

  /// Hs = s + 2C X'u, u_i = (l+ + l-) v_i - alpha+ - alpha-, v = Xs, sets from the last fun().
  /// Every `part_sample`-th call fences and times its three parts (fences in every call would
  /// add to each product); hv_parts() has the means over the timed calls.
  static constexpr int part_sample = 8;
  struct HvParts {
    double x_times_s = 0, sums = 0, x_transpose_times_u = 0;  ///< mean fenced seconds per call
    int timed = 0;
  };
  HvParts hv_parts() const {
    HvParts mean = part_totals_;
    if (mean.timed > 0) {
      mean.x_times_s /= mean.timed;
      mean.sums /= mean.timed;
      mean.x_transpose_times_u /= mean.timed;
    }
    return mean;
  }

  void hv(const Vector& s, const Vector& hs) {
    const bool timed = hv_calls_++ % part_sample == 0;
    auto part = [&](double& total, auto&& work) {
      if (timed) {
        total += time_fenced(space_, work);
      } else {
        work();
      }
    };
    part(part_totals_.x_times_s, [&] { x_.times(s, d_.v); });
    part(part_totals_.sums, [&] { set_sums(d_.v, d_.u, true); });
    part(part_totals_.x_transpose_times_u, [&] { x_.transpose_times(d_.u, hs); });
    part_totals_.timed += timed;
    KokkosBlas::axpby(space_, regularizer_, on_space(s), 2 * C_, on_space(hs));
  }

  /// Seconds for one pass over X at the device's copy bandwidth (the floor of X.v and X'.u).
  double time_pass_over_x() const { return x_.time_pass(); }
  /// Bytes of X as stored on the device.
  std::int64_t x_bytes() const { return x_.bytes(); }

  /// X on the device, and its products.
  const FeatureMatrix<ExecSpace, Feature>& matrix() const { return x_; }

  /// The scores z = Xw of the last fun().
  Vector scores() const { return d_.z; }

  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;

  /// A team per unit: a query, or span_ sorted positions of a large one. On the GPU 128 threads
  /// (queries average about 120 documents; a power of two, which AUTO does not promise and
  /// Kokkos 3.4's team scan needed).
  Policy per_unit(std::int64_t units) const {
    return runs_on_host<ExecSpace> ? Policy(space_, units, Kokkos::AUTO) : Policy(space_, units, 128);
  }

  /// A unit's place: its query, the query's first document and size, and the unit's first sorted
  /// position in the query and its number of positions (a power of two: the query's padded size,
  /// or span_).
  struct Unit {
    int query;
    std::int64_t first, n, offset, span;
    /// End of the unit's documents (query positions offset.. below n).
    KOKKOS_INLINE_FUNCTION std::int64_t docs_end() const {
      return offset + span < n ? offset + span : (n > offset ? n : offset);
    }
    /// End of its scanned positions: the next unit, or, in the query's last unit, n + 1
    /// (position n holds the query's total).
    KOKKOS_INLINE_FUNCTION std::int64_t scan_end() const {
      const bool last = offset + span >= padded(n);
      const std::int64_t end = !last && offset + span < n + 1 ? offset + span : n + 1;
      return end > offset ? end : offset;
    }
  };
  struct UnitTable {
    Kokkos::View<int*, Memory> query, order;
    Kokkos::View<std::int64_t*, Memory> offset, begin;
    std::int64_t span;
    /// The unit a team of a per-unit kernel takes: the largest first, so that no long team
    /// starts last.
    KOKKOS_INLINE_FUNCTION std::int64_t of(const Member& team) const { return order(team.league_rank()); }
    KOKKOS_INLINE_FUNCTION Unit operator()(std::int64_t unit) const {
      const int q = query(unit);
      const std::int64_t first = begin(q), n = begin(q + 1) - first, size = padded(n);
      return {q, first, n, offset(unit), size < span ? size : span};
    }
  };
  UnitTable unit_table() const { return {unit_query_, unit_order_, unit_offset_, begin_, span_}; }

  /// Compares and, if out of order, swaps workspace entries i < j by (level, key), carrying
  /// the document order along: ascending puts the smaller first.
  struct Workspace {
    Vector key;
    Kokkos::View<int*, Memory> level, perm;
    KOKKOS_INLINE_FUNCTION void order(std::int64_t i, std::int64_t j, bool ascending) const {
      const bool after = level(i) > level(j) || (level(i) == level(j) && key(i) > key(j));
      const bool before = level(i) < level(j) || (level(i) == level(j) && key(i) < key(j));
      if (ascending ? after : before) {
        const double k = key(i);
        key(i) = key(j);
        key(j) = k;
        const int l = level(i);
        level(i) = level(j);
        level(j) = l;
        const int p = perm(i);
        perm(i) = perm(j);
        perm(j) = p;
      }
    }
  };

  // Public only because CUDA's extended lambdas cannot live in private member functions.

  /// Per query: z and levels into the workspace slice, padded with +infinity past the last
  /// level, then a bitonic sort by (level, z) that carries the document order along. A unit
  /// sorts its positions (blocks of a large query alternate direction, as the network needs);
  /// then each merge of a large query's blocks compares across units by device-wide steps down to
  /// the span and within each unit below it.
  void sort_queries() {
    auto z = d_.z;
    auto level = level_;
    const Workspace work{d_.key, d_.sorted_level, d_.perm};
    const UnitTable units = unit_table();
    const int levels = levels_;
    const double infinity = std::numeric_limits<double>::infinity();
    Kokkos::parallel_for(
        "Kollective::RankSvm::sort", per_unit(unit_query_.extent(0)), KOKKOS_LAMBDA(const Member& team) {
          const Unit unit = units(units.of(team));
          const std::int64_t base = 2 * unit.first + unit.offset;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, unit.span), [&](const std::int64_t k) {
            const std::int64_t at = unit.offset + k;  // position in the query
            work.key(base + k) = at < unit.n ? z(unit.first + at) : infinity;
            work.level(base + k) = at < unit.n ? level(unit.first + at) : levels;
            work.perm(base + k) = static_cast<int>(unit.first + at);
          });
          team.team_barrier();
          for (std::int64_t block = 2; block <= unit.span; block <<= 1)
            sort_steps(team, work, unit, base, block, block / 2);
        });
    auto split_units = split_units_;
    for (std::int64_t block = 2 * span_; block <= largest_split_; block <<= 1) {
      for (std::int64_t stride = block / 2; stride >= span_; stride >>= 1) merge_across_units(work, block, stride);
      Kokkos::parallel_for(
          "Kollective::RankSvm::sort_merge", per_unit(split_units.extent(0)), KOKKOS_LAMBDA(const Member& team) {
            const std::int64_t u = split_units(team.league_rank());
            const Unit unit = units(u);
            if (block <= padded(unit.n))
              sort_steps(team, work, unit, 2 * unit.first + unit.offset, block, unit.span / 2);
          });
    }
  }

  /// Within a unit's positions from `base`: the steps of a bitonic block, strides from `stride`
  /// down to 1. Directions come from positions in the query (unit.offset + local).
  static KOKKOS_INLINE_FUNCTION void sort_steps(const Member& team, const Workspace& work, const Unit& unit,
                                                std::int64_t base, std::int64_t block, std::int64_t stride) {
    for (; stride > 0; stride >>= 1) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, unit.span / 2), [&](const std::int64_t t) {
        const std::int64_t local = 2 * stride * (t / stride) + t % stride;
        work.order(base + local, base + local + stride, ((unit.offset + local) & block) == 0);
      });
      team.team_barrier();
    }
  }

  /// One bitonic step with stride >= span_ over every large query's positions (a thread per pair).
  void merge_across_units(const Workspace& work, std::int64_t block, std::int64_t stride) {
    const UnitTable units = unit_table();
    auto split_units = split_units_;
    const std::int64_t half = span_ / 2;
    Kokkos::parallel_for(
        "Kollective::RankSvm::sort_merge_across",
        Kokkos::RangePolicy<ExecSpace>(space_, 0, split_units.extent(0) * half),
        KOKKOS_LAMBDA(const std::int64_t index) {
          const Unit unit = units(split_units(index / half));
          if (block > padded(unit.n)) return;
          const std::int64_t t = unit.offset / 2 + index % half;  // the pair's number in its query
          const std::int64_t i = 2 * stride * (t / stride) + t % stride;
          work.order(2 * unit.first + i, 2 * unit.first + i + stride, (i & block) == 0);
        });
  }

  /// Per query, the workspace position where each level starts (and where the last ends). For
  /// every document i and level l != level_i, the documents of level l in i's sets are a range
  /// of positions: l > level_i: z_j < z_i + 1, the run's first positions, from the level's
  /// start to range_end(i, l); l < level_i: z_j > z_i - 1, its last, from range_end(i, l) to the
  /// next level's start. count = l+ + l-, balance = l- - l+. Then the sums gamma over the ranges
  /// (set_sums of z).
  void find_ranges() {
    auto z = d_.z, key = d_.key;
    auto sorted_level = d_.sorted_level, level = level_;
    auto range_end = d_.range_end, level_start = level_start_;
    auto count = d_.count, balance = d_.balance;
    auto begin = begin_;
    const UnitTable units = unit_table();
    const int levels = levels_;
    const double infinity = std::numeric_limits<double>::infinity();
    Kokkos::parallel_for(
        "Kollective::RankSvm::level_starts",
        Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space_, {0, 0},
                                                          {queries_, static_cast<std::int64_t>(levels + 1)}),
        KOKKOS_LAMBDA(const std::int64_t q, const std::int64_t l) {
          const std::int64_t base = 2 * begin(q), n = begin(q + 1) - begin(q);
          level_start(q, l) =
              static_cast<int>(base + count_before(key, sorted_level, base, n, static_cast<int>(l), -infinity, false));
        });
    Kokkos::parallel_for(
        "Kollective::RankSvm::ranges", per_unit(unit_query_.extent(0)), KOKKOS_LAMBDA(const Member& team) {
          const Unit unit = units(units.of(team));
          const std::int64_t first = unit.first, n = unit.n, base = 2 * first;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, unit.offset, unit.docs_end()), [&](const std::int64_t k) {
            const std::int64_t i = first + k;
            const int own = level(i);
            double pairs = 0, difference = 0;
            for (int l = 0; l < levels; ++l) {
              if (l == own) continue;
              const std::int64_t end =
                  base + count_before(key, sorted_level, base, n, l, l > own ? z(i) + 1 : z(i) - 1, l < own);
              const std::int64_t size =
                  l > own ? end - level_start(unit.query, l) : level_start(unit.query, l + 1) - end;
              difference += l > own ? -static_cast<double>(size) : static_cast<double>(size);
              pairs += static_cast<double>(size);
              range_end(i, l) = static_cast<int>(end);
            }
            count(i) = pairs;
            balance(i) = difference;
          });
        });
    set_sums(d_.z, d_.sum, false);
  }

  /// Per query: an exclusive scan of `value` in sorted order into the workspace, then for every
  /// document the sum S_i of `value` over its ranges. out_i = S_i, or with hessian_form,
  /// out_i = count_i value_i - S_i (the u of Hs). Each unit's team scans its positions; each
  /// unit of a large query adds the total of the query's earlier units (in a fixed order); then
  /// a thread per document takes its sums, in a kernel of their own: done by each unit's team
  /// after its scan, they are latency-bound (a few documents per thread behind the team's scan)
  /// and slower. X.s is gemv's: computed by each query's team inside the scan kernel, it takes
  /// about five times as long.
  void set_sums(const Vector& value, const Vector& out, bool hessian_form) {
    const SetSums sums{d_.prefix,    d_.perm,  level_,      doc_query_, d_.range_end,
                       level_start_, d_.count, unit_total_, levels_};
    const UnitTable units = unit_table();
    Kokkos::parallel_for(
        "Kollective::RankSvm::set_sums_scan", per_unit(unit_query_.extent(0)), KOKKOS_LAMBDA(const Member& team) {
          const std::int64_t u = units.of(team);
          sums.scan(team, units(u), u, value);
        });
    auto split_units = split_units_;
    const std::int64_t span = span_;
    if (split_units.extent(0) > 0) {
      Kokkos::parallel_for(
          "Kollective::RankSvm::set_sums_carry", per_unit(split_units.extent(0)), KOKKOS_LAMBDA(const Member& team) {
            const std::int64_t u = split_units(team.league_rank());
            const Unit unit = units(u);
            double carry = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, u - unit.offset / span, u),
                [&](const std::int64_t earlier, double& total) { total += sums.unit_total(earlier); }, carry);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, unit.offset, unit.scan_end()),
                                 [&](const std::int64_t k) { sums.prefix(2 * unit.first + k) += carry; });
          });
    }
    Kokkos::parallel_for(
        "Kollective::RankSvm::set_sums", Kokkos::RangePolicy<ExecSpace>(space_, 0, docs_),
        KOKKOS_LAMBDA(const std::int64_t i) {
          const double total = sums.over_ranges(i);
          out(i) = hessian_form ? sums.count(i) * value(i) - total : total;
        });
  }

  /// The views of set_sums's kernels.
  struct SetSums {
    Vector prefix;
    Kokkos::View<int*, Memory> perm, level, doc_query;
    Positions range_end, level_start;
    Vector count, unit_total;
    int levels;

    /// prefix = the exclusive scan of value over the unit's positions; unit_total = their sum.
    KOKKOS_INLINE_FUNCTION void scan(const Member& team, const Unit& unit, std::int64_t u, const Vector& value) const {
      const std::int64_t base = 2 * unit.first, n = unit.n, end = unit.scan_end();
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, unit.offset, end),
                            [&](const std::int64_t k, double& partial, const bool final) {
                              if (final) prefix(base + k) = partial;
                              if (k < n) partial += value(perm(base + k));
                              if (final && k == end - 1) unit_total(u) = partial;
                            });
    }

    /// Document i's sum over its ranges, from the prefixes of its whole query.
    KOKKOS_INLINE_FUNCTION double over_ranges(std::int64_t i) const {
      const int q = doc_query(i), own = level(i);
      double total = 0;
      for (int l = 0; l < levels; ++l) {
        if (l > own) {
          total += prefix(range_end(i, l)) - prefix(level_start(q, l));
        } else if (l < own) {
          total += prefix(level_start(q, l + 1)) - prefix(range_end(i, l));
        }
      }
      return total;
    }
  };

 private:
  /// The work units: a query whose padded size fits in span_ is one unit; a larger one is
  /// split into units of span_ positions (consecutive in the table). Teams take them in
  /// unit_order_: by span, largest first.
  void make_units(const std::vector<std::int64_t>& query_begin) {
    std::vector<int> query;
    std::vector<std::int64_t> offset, split, unit_span;
    largest_split_ = 0;
    for (std::int64_t q = 0; q < queries_; ++q) {
      const std::int64_t size = padded(query_begin[q + 1] - query_begin[q]);
      if (size > span_) largest_split_ = std::max(largest_split_, size);
      for (std::int64_t at = 0; at < size; at += span_) {
        if (size > span_) split.push_back(static_cast<std::int64_t>(query.size()));
        query.push_back(static_cast<int>(q));
        offset.push_back(at);
        unit_span.push_back(std::min(size, span_));
      }
    }
    std::vector<int> order(query.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return unit_span[a] > unit_span[b]; });
    unit_order_ = upload<int>("Kollective::RankSvm::unit_order", order);
    unit_query_ = upload<int>("Kollective::RankSvm::unit_query", query);
    unit_offset_ = upload<std::int64_t>("Kollective::RankSvm::unit_offset", offset);
    split_units_ = upload<std::int64_t>("Kollective::RankSvm::split_units", split);
    unit_total_ = Vector(Kokkos::view_alloc(space_, "Kollective::RankSvm::unit_total"), query.size());
  }

  /// `vector` typed with ExecSpace (a host memory's Views default to the default host space), as
  /// KokkosBlas asks of Views worked on by `space_`.
  static Kokkos::View<double*, Kokkos::Device<ExecSpace, Memory>> on_space(const Vector& vector) { return vector; }

  template <class T>
  Kokkos::View<T*, Memory> upload(const std::string& label, const std::vector<T>& values) {
    Kokkos::View<T*, Memory> view(Kokkos::view_alloc(space_, Kokkos::WithoutInitializing, label), values.size());
    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(values.data(),
                                                                                            values.size());
    Kokkos::deep_copy(space_, view, host);
    space_.fence();
    return view;
  }

  ExecSpace space_;
  double C_, regularizer_ = 1;
  std::int64_t span_, largest_split_ = 0;
  Kokkos::View<int*, Memory> unit_query_, unit_order_, doc_query_;  ///< unit_order_: units by size, largest first
  Kokkos::View<std::int64_t*, Memory> unit_offset_, split_units_;   ///< split_units_: the units of large queries
  Vector unit_total_;
  std::int64_t docs_ = 0, queries_ = 0;
  int features_ = 0, levels_ = 0;
  FeatureMatrix<ExecSpace, Feature> x_;
  Kokkos::View<int*, Memory> level_;
  Kokkos::View<std::int64_t*, Memory> begin_;
  Positions level_start_;  ///< per (query, level)
  DocumentBuffers<Memory> d_;
  HvParts part_totals_;
  std::int64_t hv_calls_ = 0;
};

}  // namespace kollective::ranksvm::Impl

#endif
