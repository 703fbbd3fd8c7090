#ifndef KOLLECTIVE_CORE_COMM_COMMUNICATOR_HPP
#define KOLLECTIVE_CORE_COMM_COMMUNICATOR_HPP

/// \file Communicator.hpp
/// The ranks that share a solve. A default Communicator is this process alone (rank 0 of 1; every
/// collective returns at once), so algorithms have one code path; comm::from_mpi (Mpi.hpp) makes
/// one over the caller's MPI communicator, and optionally the caller's NCCL communicator over the
/// same ranks. Communicator.cpp is the only source that includes mpi.h or nccl.h. Collectives here
/// move host memory; MPI is never handed device pointers (device memory goes through NCCL).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "kollective/core/Error.hpp"

struct ncclComm;  // nccl.h: typedef struct ncclComm* ncclComm_t

namespace kollective::comm {

/// Whether this build runs several ranks (MPI) or one.
bool built_with_mpi();
/// Whether this build moves device data between ranks through NCCL (CUDA builds with MPI).
bool built_with_nccl();

/// One message of an exchange: `bytes` at `data`, to or from `rank`.
struct Transfer {
  void* data;
  std::size_t bytes;
  int rank;
};

class Communicator {
 public:
  /// This process alone.
  Communicator() = default;

  /// Use comm::from_mpi (Mpi.hpp): a collective over the ranks of the MPI communicator whose
  /// Fortran handle (MPI_Comm_c2f) is `mpi_handle`, so that this header needs no mpi.h.
  static Communicator from_mpi_handle(std::int64_t mpi_handle, ncclComm* nccl);

  /// This rank and the number of ranks.
  int rank() const;
  int size() const;
  /// This rank's index among the communicator's ranks on its node, and how many run there.
  int local_rank() const;
  int local_size() const;
  void barrier() const;

  /// Every rank gets `values` of rank `root`.
  void broadcast(std::vector<std::int64_t>& values, int root) const;
  void broadcast(std::string& text, int root) const;
  /// Element-wise sum and maximum over the ranks, in place, the same on every rank. Sums of
  /// doubles are added in rank order on every rank, so the result does not depend on the MPI
  /// library's reduction tree.
  void allreduce_sum(std::vector<std::int64_t>& values) const;
  void allreduce_sum(std::vector<double>& values) const;
  void allreduce_max(std::vector<std::int64_t>& values) const;
  void allreduce_max(std::vector<double>& values) const;
  /// Whether `holds` is true on every rank, the same answer on each, so that ranks which choose
  /// by it a path with collectives in it choose alike.
  bool holds_on_every_rank(bool holds) const {
    std::vector<std::int64_t> failing = {holds ? 0 : 1};
    allreduce_max(failing);
    return failing[0] == 0;
  }
  /// Every rank's text, in rank order, on every rank.
  std::vector<std::string> allgather(const std::string& text) const;

  /// Every rank's values (of a trivially copyable type) concatenated in rank order, on every rank.
  template <class T>
  std::vector<T> allgather_values(const std::vector<T>& mine) const {
    static_assert(std::is_trivially_copyable<T>::value, "allgather_values moves values as bytes");
    std::vector<T> all;
    const std::string bytes(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(T));
    for (const std::string& part : allgather(bytes)) {
      const std::size_t count = part.size() / sizeof(T);
      all.resize(all.size() + count);
      std::memcpy(all.data() + all.size() - count, part.data(), part.size());
    }
    return all;
  }

  /// Sets up device collectives (an NCCL communicator, unless the caller gave one) now, on every
  /// rank together; the first device collective would otherwise do it, and must then be made by
  /// every rank. Nothing to do without NCCL or with one rank.
  void prepare_device_collectives() const;

  /// In place: `data` holds size() parts of `part_bytes` each, and rank r's part (at r *
  /// part_bytes) reaches every rank. Device memory (`on_device`) goes through NCCL on the CUDA
  /// stream `stream`, ordered with the work queued on it; host memory through MPI, once the work
  /// writing it has finished. Use comm::allgather_parts (ViewCollectives.hpp).
  void allgather_in_place(void* data, std::size_t part_bytes, bool on_device, void* stream) const;
  /// In place: `bytes` at `data` on rank `root` reach every rank (the same address on each).
  /// Use comm::broadcast_part (ViewCollectives.hpp).
  void broadcast_in_place(void* data, std::size_t bytes, int root, bool on_device, void* stream) const;
  /// Point to point: posts every send and receive at once and completes them all. Between two
  /// ranks, messages match in the order each side lists them, so partners list them alike.
  /// Use comm::exchange_parts (ViewCollectives.hpp).
  void exchange(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives, bool on_device,
                void* stream) const;

  /// Runs `step` (which must not call collectives) on every rank and returns its result. When it
  /// throws on any rank, it throws a SharedError on every rank, with the message of the first
  /// rank that failed ("rank R: ..." when there are several), so no rank goes on alone.
  template <class Step>
  auto on_every_rank(Step&& step) const {
    std::optional<decltype(step())> result;
    std::string error;
    try {
      result.emplace(step());
    } catch (const std::exception& e) {
      error = Impl::error_message(e);
      if (error.empty()) error = "failed";
    }
    const std::vector<std::string> errors = allgather(error);
    for (int r = 0; r < size(); ++r) {
      if (!errors[r].empty())
        throw SharedError(size() == 1 ? errors[r] : "rank " + std::to_string(r) + ": " + errors[r]);
    }
    return std::move(*result);
  }

  struct State;  ///< the MPI (and NCCL) communicators, shared by copies

 private:
  std::shared_ptr<State> state_;  ///< null: this process alone
};

}  // namespace kollective::comm

#endif
