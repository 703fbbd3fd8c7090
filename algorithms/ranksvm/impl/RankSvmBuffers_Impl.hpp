#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_BUFFERS_IMPL_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_BUFFERS_IMPL_HPP

/// \file RankSvmBuffers_Impl.hpp
/// The per-document buffers of the RankSVM objective, allocated for one training or held in a
/// workspace. Do not include directly: include algorithms/ranksvm/RankSvm.hpp.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"
#include "kollective/core/Workspace.hpp"

namespace kollective::ranksvm::Impl {

template <class Memory>
struct DocumentBuffers {
  using Vector = Kokkos::View<double*, Memory>;
  using Positions = Kokkos::View<int**, Kokkos::LayoutLeft, Memory>;
  Vector z, v, r, u, count, balance, sum;  ///< per document: Xw, Xs, and the objective's factors
  /// Query q's slice [2 begin_q, 2 begin_q + 2 n_q) holds its padded sort and its prefixes.
  Vector key, prefix;
  Kokkos::View<int*, Memory> perm, sorted_level;
  Positions range_end;  ///< per (document, level)

  /// Bytes of the four workspace segments they take: the 7 vectors, key and prefix, perm and
  /// sorted_level, range_end.
  static std::vector<std::size_t> segment_bytes(std::int64_t docs, int levels) {
    const auto d = static_cast<std::size_t>(docs);
    return {7 * d * sizeof(double), 4 * d * sizeof(double), 4 * d * sizeof(int), d * levels * sizeof(int)};
  }

  /// Newly allocated, zeroed on `space`.
  template <class ExecSpace>
  static DocumentBuffers allocate(const ExecSpace& space, std::int64_t docs, int levels) {
    DocumentBuffers b;
    const auto on_space = [&](const std::string& name) {
      return Kokkos::view_alloc(space, "Kollective::RankSvm::" + name);
    };
    Vector* each[] = {&b.z, &b.v, &b.r, &b.u, &b.count, &b.balance, &b.sum};
    const char* labels[] = {"z", "Xs", "r", "u", "count", "balance", "sum"};
    for (int k = 0; k < 7; ++k) *each[k] = Vector(on_space(labels[k]), docs);
    b.key = Vector(on_space("sorted_z"), 2 * docs);
    b.prefix = Vector(on_space("prefix"), 2 * docs);
    b.perm = Kokkos::View<int*, Memory>(on_space("perm"), 2 * docs);
    b.sorted_level = Kokkos::View<int*, Memory>(on_space("sorted_level"), 2 * docs);
    b.range_end = Positions(on_space("range_end"), docs, levels);
    return b;
  }

  /// In `workspace`'s segments first .. first + 3 (reserved with segment_bytes), zeroed on `space`
  /// as new ones are.
  template <class ExecSpace>
  static DocumentBuffers in(const ExecSpace& space, const Workspace<Memory>& workspace, std::size_t first,
                            std::int64_t docs, int levels) {
    const auto vectors = workspace.template segment<double>(first),
               sorts = workspace.template segment<double>(first + 1);
    const auto ints = workspace.template segment<int>(first + 2), ends = workspace.template segment<int>(first + 3);
    Kokkos::deep_copy(space, vectors, 0.0);
    Kokkos::deep_copy(space, sorts, 0.0);
    Kokkos::deep_copy(space, ints, 0);
    Kokkos::deep_copy(space, ends, 0);
    DocumentBuffers b;
    Vector* each[] = {&b.z, &b.v, &b.r, &b.u, &b.count, &b.balance, &b.sum};
    for (int k = 0; k < 7; ++k) *each[k] = Vector(vectors.data() + k * docs, docs);
    b.key = Vector(sorts.data(), 2 * docs);
    b.prefix = Vector(sorts.data() + 2 * docs, 2 * docs);
    b.perm = Kokkos::View<int*, Memory>(ints.data(), 2 * docs);
    b.sorted_level = Kokkos::View<int*, Memory>(ints.data() + 2 * docs, 2 * docs);
    b.range_end = Positions(ends.data(), docs, levels);
    return b;
  }
};

/// X's device storage and the per-document buffers of a training on docs x features (values of
/// `Feature`) with `levels` label levels. In `workspace`, when given one: reused where it holds
/// this shape, else freed, checked against memory and taken. Without one: checked, the buffers
/// allocated, X's storage left empty (FeatureMatrix allocates it).
template <class Feature, class ExecSpace, class Memory = typename ExecSpace::memory_space>
std::pair<Kokkos::View<Feature**, Kokkos::LayoutLeft, Memory>, DocumentBuffers<Memory>> training_buffers(
    const ExecSpace& space, Workspace<Memory>* workspace, std::int64_t docs, int features, int levels) {
  const std::int64_t cells = checked_mul(docs, features, "documents x features");
  const std::int64_t x_bytes = cells * static_cast<std::int64_t>(sizeof(Feature));
  const std::vector<std::int64_t> shape = {docs, features, static_cast<std::int64_t>(sizeof(Feature)), levels};
  if (!workspace || !workspace->holds(shape)) {
    if (workspace) workspace->release();  // before the memory check, which then sees its bytes free
    // X as read (double) and as stored while it is transposed, and per document: 7 vectors, the
    // level, a 2x workspace (keys, prefixes, order, levels), its query and a range end per level.
    require_memory(memory_kind<Memory>(),
                   cells * 8 + x_bytes + docs * (8 * 7 + 4 + 2 * (8 + 8 + 4 + 4) + 4 + 4 * levels),
                   "RankSVM data (" + std::to_string(docs) + " documents x " + std::to_string(features) + " features)");
    if (workspace) workspace->adopt(shape);
  }
  if (!workspace) return {{}, DocumentBuffers<Memory>::allocate(space, docs, levels)};
  std::vector<std::size_t> segments = DocumentBuffers<Memory>::segment_bytes(docs, levels);
  segments.insert(segments.begin(), static_cast<std::size_t>(x_bytes));
  workspace->reserve(segments);
  return {Kokkos::View<Feature**, Kokkos::LayoutLeft, Memory>(workspace->template segment<Feature>(0).data(), docs,
                                                              features),
          DocumentBuffers<Memory>::in(space, *workspace, 1, docs, levels)};
}

}  // namespace kollective::ranksvm::Impl

#endif
