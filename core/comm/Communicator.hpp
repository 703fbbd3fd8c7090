#ifndef KOLLECTIVE_CORE_COMM_COMMUNICATOR_HPP
#define KOLLECTIVE_CORE_COMM_COMMUNICATOR_HPP

/// \file Communicator.hpp
/// The ranks of a run. Built with KOLLECTIVE_ENABLE_MPI, the processes of MPI_COMM_WORLD (one rank
/// per GPU, the device chosen from the node-local rank); otherwise one rank, with the same calls,
/// so algorithms have one code path. Communicator.cpp is the only file that includes mpi.h.
/// Collectives here move host memory; MPI is never handed device pointers.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "kollective/core/Error.hpp"

namespace kollective::comm {

/// MPI for the lifetime of the program: create one in main() before Kokkos starts.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

/// Whether this build runs several ranks (MPI) or one.
bool built_with_mpi();
/// Whether this build moves device data between ranks through NCCL (CUDA builds with MPI).
bool built_with_nccl();

/// This rank and the number of ranks (0 and 1 before a Session starts MPI or after it ends).
int rank();
int size();
/// This rank's index among the ranks on its node (the GPU it uses), and how many run there.
int local_rank();
int local_size();
void barrier();

/// Every rank gets `values` of rank `root`.
void broadcast(std::vector<std::int64_t>& values, int root);
void broadcast(std::string& text, int root);
/// Element-wise sum and maximum over the ranks, in place, the same on every rank. Sums of doubles
/// are added in rank order on every rank, so the result does not depend on the MPI library's
/// reduction tree.
void allreduce_sum(std::vector<std::int64_t>& values);
void allreduce_sum(std::vector<double>& values);
void allreduce_max(std::vector<std::int64_t>& values);
void allreduce_max(std::vector<double>& values);
/// A collective: whether `holds` is true on every rank, the same answer on each, so that ranks
/// which choose by it a path with collectives in it choose alike.
inline bool holds_on_every_rank(bool holds) {
  std::vector<std::int64_t> failing = {holds ? 0 : 1};
  allreduce_max(failing);
  return failing[0] == 0;
}
/// Every rank's text, in rank order, on every rank.
std::vector<std::string> allgather(const std::string& text);

/// Every rank's values (of a trivially copyable type) concatenated in rank order, on every rank.
template <class T>
std::vector<T> allgather_values(const std::vector<T>& mine) {
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

/// Sets up device collectives (NCCL's communicator) now, on every rank together; later device
/// collectives and exchanges would otherwise set them up at their first call, which must then
/// be made by every rank. Nothing to do without NCCL or with one rank.
void prepare_device_collectives();

/// In place: `data` holds size() parts of `part_bytes` each, and rank r's part (at r *
/// part_bytes) reaches every rank. Device memory (`on_device`) goes through NCCL on the CUDA
/// stream `stream`, ordered with the work queued on it; host memory through MPI, once the work
/// writing it has finished. Use comm::allgather_parts (ViewCollectives.hpp) rather than this.
void allgather_in_place(void* data, std::size_t part_bytes, bool on_device, void* stream);

/// In place: `bytes` at `data` on rank `root` reach every rank (the same address on each).
/// Device memory goes through NCCL on the CUDA stream `stream`, host memory through MPI. Use
/// comm::broadcast_part (ViewCollectives.hpp).
void broadcast_in_place(void* data, std::size_t bytes, int root, bool on_device, void* stream);

/// One message of an exchange: `bytes` at `data`, to or from `rank`.
struct Transfer {
  void* data;
  std::size_t bytes;
  int rank;
};

/// Point to point: posts every send and receive at once and completes them all. Between two
/// ranks, messages match in the order each side lists them, so partners list them alike.
/// Device memory goes through NCCL (one group, on the CUDA stream `stream`), host memory through
/// MPI. Use comm::exchange_parts (ViewCollectives.hpp).
void exchange(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives, bool on_device, void* stream);

/// Ends every rank with this rank's message (used when one rank fails and the others could wait
/// for it forever); prints "rank R: message" to stderr first.
[[noreturn]] void abort_all(const std::string& message, int exit_code = 1);

/// Runs `step` (which must not call collectives) on every rank and returns its result. When it
/// throws on any rank, it throws a SharedError on every rank, with the message of the
/// first rank that failed ("rank R: ..." when there are several), so no rank goes on alone.
template <class Step>
auto on_every_rank(Step&& step) {
  std::optional<decltype(step())> result;
  std::string error;
  try {
    result.emplace(step());
  } catch (const Error& e) {
    error = e.what();
    if (error.empty()) error = "failed";
  } catch (const std::exception& e) {
    error = std::string("internal error: ") + e.what();
  }
  const std::vector<std::string> errors = allgather(error);
  for (int r = 0; r < size(); ++r) {
    if (!errors[r].empty()) throw SharedError(size() == 1 ? errors[r] : "rank " + std::to_string(r) + ": " + errors[r]);
  }
  return std::move(*result);
}

}  // namespace kollective::comm

#endif
