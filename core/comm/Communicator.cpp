#include "kollective/core/comm/Communicator.hpp"

#include "kollective/core/Error.hpp"

#ifdef KOLLECTIVE_HAVE_MPI
#include <mpi.h>
#endif
#ifdef KOLLECTIVE_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif
#include <climits>
#include <utility>

namespace kollective::comm {

bool built_with_mpi() {
#ifdef KOLLECTIVE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool built_with_nccl() {
#ifdef KOLLECTIVE_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

#ifdef KOLLECTIVE_HAVE_MPI

namespace {

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(status, text, &length);
    fail(call, " failed: ", std::string(text, length));
  }
}

bool mpi_finalized() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

#ifdef KOLLECTIVE_HAVE_NCCL
void check_nccl(ncclResult_t status, const char* call) {
  if (status != ncclSuccess) fail(call, " failed: ", ncclGetErrorString(status));
}
#endif

}  // namespace

struct Communicator::State {
  MPI_Comm comm = MPI_COMM_NULL;  ///< Kollective's duplicate of the caller's communicator
  MPI_Comm node = MPI_COMM_NULL;  ///< its ranks on this node
  int rank = 0, size = 1, local_rank = 0, local_size = 1;
  ncclComm* nccl = nullptr;
  bool owns_nccl = false;  ///< made here (at the first device collective), destroyed here

  ~State() {
#ifdef KOLLECTIVE_HAVE_NCCL
    if (owns_nccl && nccl) ncclCommDestroy(nccl);
#endif
    if (mpi_finalized()) return;
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

Communicator Communicator::from_mpi_handle(std::int64_t mpi_handle, ncclComm* nccl) {
  int started = 0;
  MPI_Initialized(&started);
  if (!started || mpi_finalized())
    fail("comm::from_mpi: MPI is not running (call it between MPI_Init and MPI_Finalize)");
  const MPI_Comm caller = MPI_Comm_f2c(static_cast<MPI_Fint>(mpi_handle));
  auto state = std::make_shared<State>();
  check(MPI_Comm_dup(caller, &state->comm), "MPI_Comm_dup");
  check(MPI_Comm_rank(state->comm, &state->rank), "MPI_Comm_rank");
  check(MPI_Comm_size(state->comm, &state->size), "MPI_Comm_size");
  check(MPI_Comm_split_type(state->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &state->node), "MPI_Comm_split_type");
  check(MPI_Comm_rank(state->node, &state->local_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(state->node, &state->local_size), "MPI_Comm_size");
  if (nccl) {
#ifdef KOLLECTIVE_HAVE_NCCL
    int nccl_rank = -1, nccl_size = -1;
    check_nccl(ncclCommUserRank(nccl, &nccl_rank), "ncclCommUserRank");
    check_nccl(ncclCommCount(nccl, &nccl_size), "ncclCommCount");
    if (nccl_rank != state->rank || nccl_size != state->size) {
      fail("comm::from_mpi: the NCCL communicator has rank ", nccl_rank, " of ", nccl_size, ", the MPI one rank ",
           state->rank, " of ", state->size, " (they must hold the same ranks in the same order)");
    }
    state->nccl = nccl;
#else
    fail("comm::from_mpi: an NCCL communicator, but this Kollective was built without NCCL");
#endif
  }
  Communicator communicator;
  communicator.state_ = std::move(state);
  return communicator;
}

namespace {

/// Gathers every rank's bytes, in rank order, on every rank.
std::vector<std::string> gather_bytes(MPI_Comm comm, int rank, int ranks, const std::string& bytes) {
  const long long own = static_cast<long long>(bytes.size());
  std::vector<long long> lengths(ranks);
  check(MPI_Allgather(&own, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, comm), "MPI_Allgather");
  std::vector<int> counts(ranks), offsets(ranks);
  long long total = 0;
  for (int r = 0; r < ranks; ++r) {
    if (lengths[r] > (1ll << 30)) fail("comm::allgather: rank ", r, " sends ", lengths[r], " bytes (at most 2^30)");
    offsets[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(lengths[r]);
    total += lengths[r];
  }
  if (total > (1ll << 30)) fail("comm::allgather: ", total, " bytes in all (at most 2^30)");
  std::string all(static_cast<std::size_t>(total), '\0');
  check(MPI_Allgatherv(bytes.data(), counts[rank], MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR, comm),
        "MPI_Allgatherv");
  std::vector<std::string> parts;
  for (int r = 0; r < ranks; ++r) parts.push_back(all.substr(offsets[r], counts[r]));
  return parts;
}

/// An MPI datatype and a count of it that together make `bytes` contiguous bytes (MPI counts
/// are ints): units of up to 1 MiB that divide `bytes`, or, past 2^31 units, one element made of
/// whole MiB plus the rest. Free the type after use.
std::pair<MPI_Datatype, int> byte_units(std::size_t bytes) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  MPI_Datatype type;
  std::size_t unit = 1;
  while (unit < mib && bytes % (unit * 2) == 0) unit *= 2;
  if (bytes / unit <= static_cast<std::size_t>(INT_MAX)) {
    check(MPI_Type_contiguous(static_cast<int>(unit), MPI_BYTE, &type), "MPI_Type_contiguous");
    check(MPI_Type_commit(&type), "MPI_Type_commit");
    return {type, static_cast<int>(bytes / unit)};
  }
  MPI_Datatype whole;
  check(MPI_Type_contiguous(static_cast<int>(mib), MPI_BYTE, &whole), "MPI_Type_contiguous");
  int lengths[2] = {static_cast<int>(bytes / mib), static_cast<int>(bytes % mib)};
  MPI_Aint offsets[2] = {0, static_cast<MPI_Aint>(bytes / mib * mib)};
  MPI_Datatype parts[2] = {whole, MPI_BYTE};
  check(MPI_Type_create_struct(2, lengths, offsets, parts, &type), "MPI_Type_create_struct");
  check(MPI_Type_commit(&type), "MPI_Type_commit");
  MPI_Type_free(&whole);
  return {type, 1};
}

void exchange_host(MPI_Comm comm, const std::vector<Transfer>& sends, const std::vector<Transfer>& receives) {
  std::vector<MPI_Request> requests;
  std::vector<MPI_Datatype> types;
  auto post = [&](const Transfer& transfer, bool send) {
    if (transfer.bytes == 0) return;
    auto [type, count] = byte_units(transfer.bytes);
    types.push_back(type);
    requests.emplace_back();
    if (send) {
      check(MPI_Isend(transfer.data, count, type, transfer.rank, 0, comm, &requests.back()), "MPI_Isend");
    } else {
      check(MPI_Irecv(transfer.data, count, type, transfer.rank, 0, comm, &requests.back()), "MPI_Irecv");
    }
  };
  for (const Transfer& transfer : receives) post(transfer, false);
  for (const Transfer& transfer : sends) post(transfer, true);
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  for (MPI_Datatype& type : types) MPI_Type_free(&type);
}

#ifdef KOLLECTIVE_HAVE_NCCL
/// The NCCL communicator over the ranks' GPUs: the caller's, or one made at the first device
/// collective (after Kokkos has chosen the device), rank 0's unique id reaching the others
/// through MPI.
ncclComm* device_comm(Communicator::State& state) {
  if (!state.nccl) {
    ncclUniqueId id{};
    if (state.rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    check(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, state.comm), "MPI_Bcast");
    ncclComm_t made = nullptr;
    const ncclResult_t status = ncclCommInitRank(&made, state.size, id, state.rank);
    if (status != ncclSuccess) {
      fail("ncclCommInitRank failed: ", ncclGetErrorString(status),
           " (NCCL needs one GPU per rank: are there more ranks on a node than GPUs?)");
    }
    state.nccl = made;
    state.owns_nccl = true;
  }
  return state.nccl;
}
#endif

}  // namespace

int Communicator::rank() const { return state_ ? state_->rank : 0; }
int Communicator::size() const { return state_ ? state_->size : 1; }
int Communicator::local_rank() const { return state_ ? state_->local_rank : 0; }
int Communicator::local_size() const { return state_ ? state_->local_size : 1; }

void Communicator::barrier() const {
  if (state_) check(MPI_Barrier(state_->comm), "MPI_Barrier");
}

void Communicator::broadcast(std::vector<std::int64_t>& values, int root) const {
  if (!state_) return;
  long long count = static_cast<long long>(values.size());
  check(MPI_Bcast(&count, 1, MPI_LONG_LONG, root, state_->comm), "MPI_Bcast");
  values.resize(static_cast<std::size_t>(count));
  check(MPI_Bcast(values.data(), static_cast<int>(count), MPI_INT64_T, root, state_->comm), "MPI_Bcast");
}

void Communicator::broadcast(std::string& text, int root) const {
  if (!state_) return;
  long long count = static_cast<long long>(text.size());
  check(MPI_Bcast(&count, 1, MPI_LONG_LONG, root, state_->comm), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(count));
  check(MPI_Bcast(text.data(), static_cast<int>(count), MPI_CHAR, root, state_->comm), "MPI_Bcast");
}

void Communicator::allreduce_sum(std::vector<std::int64_t>& values) const {
  if (!state_) return;
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_SUM, state_->comm),
        "MPI_Allreduce");
}

void Communicator::allreduce_sum(std::vector<double>& values) const {
  if (!state_) return;
  // Fixed order: gather every rank's vector and add them rank by rank on every rank.
  const std::string own(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  const std::vector<std::string> parts = allgather(own);
  std::vector<double> sum(values.size(), 0.0);
  for (const std::string& part : parts) {
    if (part.size() != own.size()) fail("comm::allreduce_sum: the ranks' vectors differ in length");
    const double* other = reinterpret_cast<const double*>(part.data());
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += other[k];
  }
  values = std::move(sum);
}

void Communicator::allreduce_max(std::vector<std::int64_t>& values) const {
  if (!state_) return;
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_MAX, state_->comm),
        "MPI_Allreduce");
}

void Communicator::allreduce_max(std::vector<double>& values) const {
  if (!state_) return;
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX, state_->comm),
        "MPI_Allreduce");
}

std::vector<std::string> Communicator::allgather(const std::string& text) const {
  if (!state_) return {text};
  return gather_bytes(state_->comm, state_->rank, state_->size, text);
}

void Communicator::prepare_device_collectives() const {
#ifdef KOLLECTIVE_HAVE_NCCL
  if (size() > 1) device_comm(*state_);
#endif
}

void Communicator::allgather_in_place(void* data, std::size_t part_bytes, bool on_device, void* stream) const {
  if (size() == 1 || part_bytes == 0) return;
  char* const parts = static_cast<char*>(data);
  if (!on_device) {
    auto [type, count] = byte_units(part_bytes);
    check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, parts, count, type, state_->comm), "MPI_Allgather");
    MPI_Type_free(&type);
    return;
  }
#ifdef KOLLECTIVE_HAVE_NCCL
  check_nccl(ncclAllGather(parts + rank() * part_bytes, parts, part_bytes, ncclChar, device_comm(*state_),
                           static_cast<cudaStream_t>(stream)),
             "ncclAllGather");
#else
  (void)stream;
  fail("comm::allgather_in_place: device memory, but this build has no NCCL");
#endif
}

void Communicator::broadcast_in_place(void* data, std::size_t bytes, int root, bool on_device, void* stream) const {
  if (size() == 1 || bytes == 0) return;
  if (!on_device) {
    auto [type, count] = byte_units(bytes);
    check(MPI_Bcast(data, count, type, root, state_->comm), "MPI_Bcast");
    MPI_Type_free(&type);
    return;
  }
#ifdef KOLLECTIVE_HAVE_NCCL
  check_nccl(ncclBroadcast(data, data, bytes, ncclChar, root, device_comm(*state_), static_cast<cudaStream_t>(stream)),
             "ncclBroadcast");
#else
  (void)stream;
  fail("comm::broadcast_in_place: device memory, but this build has no NCCL");
#endif
}

void Communicator::exchange(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives, bool on_device,
                            void* stream) const {
  if (sends.empty() && receives.empty()) return;
  if (!state_) fail("comm::exchange: a single rank has no partners");
  if (!on_device) return exchange_host(state_->comm, sends, receives);
#ifdef KOLLECTIVE_HAVE_NCCL
  ncclComm_t comm = device_comm(*state_);
  const cudaStream_t cuda_stream = static_cast<cudaStream_t>(stream);
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (const Transfer& transfer : receives) {
    if (transfer.bytes == 0) continue;
    check_nccl(ncclRecv(transfer.data, transfer.bytes, ncclChar, transfer.rank, comm, cuda_stream), "ncclRecv");
  }
  for (const Transfer& transfer : sends) {
    if (transfer.bytes == 0) continue;
    check_nccl(ncclSend(transfer.data, transfer.bytes, ncclChar, transfer.rank, comm, cuda_stream), "ncclSend");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
#else
  (void)stream;
  fail("comm::exchange: device memory, but this build has no NCCL");
#endif
}

#else  // one process: every Communicator is this process alone

struct Communicator::State {};

Communicator Communicator::from_mpi_handle(std::int64_t, ncclComm*) {
  fail("comm::from_mpi: this Kollective was built without MPI (configure it with -DKOLLECTIVE_ENABLE_MPI=ON)");
}
int Communicator::rank() const { return 0; }
int Communicator::size() const { return 1; }
int Communicator::local_rank() const { return 0; }
int Communicator::local_size() const { return 1; }
void Communicator::barrier() const {}
void Communicator::broadcast(std::vector<std::int64_t>&, int) const {}
void Communicator::broadcast(std::string&, int) const {}
void Communicator::allreduce_sum(std::vector<std::int64_t>&) const {}
void Communicator::allreduce_sum(std::vector<double>&) const {}
void Communicator::allreduce_max(std::vector<std::int64_t>&) const {}
void Communicator::allreduce_max(std::vector<double>&) const {}
std::vector<std::string> Communicator::allgather(const std::string& text) const { return {text}; }
void Communicator::prepare_device_collectives() const {}
void Communicator::allgather_in_place(void*, std::size_t, bool, void*) const {}
void Communicator::broadcast_in_place(void*, std::size_t, int, bool, void*) const {}
void Communicator::exchange(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives, bool,
                            void*) const {
  if (!sends.empty() || !receives.empty()) fail("comm::exchange: a single rank has no partners");
}

#endif

}  // namespace kollective::comm
