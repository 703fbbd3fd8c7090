#include "kollective/core/comm/Communicator.hpp"

#include <cstdio>
#include <cstdlib>

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

#ifdef KOLLECTIVE_HAVE_MPI

namespace {

MPI_Comm node_comm = MPI_COMM_NULL;

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(status, text, &length);
    abort_all(std::string(call) + " failed: " + std::string(text, length));
  }
}

/// Gathers every rank's bytes, in rank order, on every rank.
std::vector<std::string> gather_bytes(const std::string& bytes) {
  const int ranks = size();
  const long long own = static_cast<long long>(bytes.size());
  std::vector<long long> lengths(ranks);
  check(MPI_Allgather(&own, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD), "MPI_Allgather");
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
  check(MPI_Allgatherv(bytes.data(), counts[rank()], MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR,
                       MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> parts;
  for (int r = 0; r < ranks; ++r) parts.push_back(all.substr(offsets[r], counts[r]));
  return parts;
}

#ifdef KOLLECTIVE_HAVE_NCCL
ncclComm_t nccl_comm = nullptr;

void check_nccl(ncclResult_t status, const char* call) {
  if (status != ncclSuccess) abort_all(std::string(call) + " failed: " + ncclGetErrorString(status));
}

/// The NCCL communicator over every rank's GPU, made at the first device collective (after
/// Kokkos has chosen the device): rank 0's unique id reaches the others through MPI.
ncclComm_t device_comm() {
  if (!nccl_comm) {
    ncclUniqueId id{};
    if (rank() == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    check(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
    const ncclResult_t status = ncclCommInitRank(&nccl_comm, size(), id, rank());
    if (status != ncclSuccess) {
      abort_all(std::string("ncclCommInitRank failed: ") + ncclGetErrorString(status) +
                " (NCCL needs one GPU per rank: are there more ranks on a node than GPUs?)");
    }
  }
  return nccl_comm;
}
#endif

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

void allgather_host(char* data, std::size_t part_bytes) {
  auto [type, count] = byte_units(part_bytes);
  check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, count, type, MPI_COMM_WORLD), "MPI_Allgather");
  MPI_Type_free(&type);
}

void exchange_host(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives) {
  std::vector<MPI_Request> requests;
  std::vector<MPI_Datatype> types;
  auto post = [&](const Transfer& transfer, bool send) {
    if (transfer.bytes == 0) return;
    auto [type, count] = byte_units(transfer.bytes);
    types.push_back(type);
    requests.emplace_back();
    if (send) {
      check(MPI_Isend(transfer.data, count, type, transfer.rank, 0, MPI_COMM_WORLD, &requests.back()), "MPI_Isend");
    } else {
      check(MPI_Irecv(transfer.data, count, type, transfer.rank, 0, MPI_COMM_WORLD, &requests.back()), "MPI_Irecv");
    }
  };
  for (const Transfer& transfer : receives) post(transfer, false);
  for (const Transfer& transfer : sends) post(transfer, true);
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  for (MPI_Datatype& type : types) MPI_Type_free(&type);
}

}  // namespace

Session::Session(int& argc, char**& argv) {
  check(MPI_Init(&argc, &argv), "MPI_Init");
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_comm), "MPI_Comm_split_type");
}

Session::~Session() {
#ifdef KOLLECTIVE_HAVE_NCCL
  if (nccl_comm) ncclCommDestroy(nccl_comm);
#endif
  if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
  MPI_Finalize();
}

bool built_with_mpi() { return true; }

bool built_with_nccl() {
#ifdef KOLLECTIVE_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

namespace {
/// Whether MPI runs (a program or test without a Session is one rank).
bool mpi_running() {
  int started = 0, finished = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&finished);
  return started && !finished;
}
}  // namespace

int rank() {
  int value = 0;
  if (mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &value);
  return value;
}

int size() {
  int value = 1;
  if (mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &value);
  return value;
}

int local_rank() {
  int value = 0;
  if (node_comm != MPI_COMM_NULL) MPI_Comm_rank(node_comm, &value);
  return value;
}

int local_size() {
  int value = 1;
  if (node_comm != MPI_COMM_NULL) MPI_Comm_size(node_comm, &value);
  return value;
}

void barrier() { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

void broadcast(std::vector<std::int64_t>& values, int root) {
  long long count = static_cast<long long>(values.size());
  check(MPI_Bcast(&count, 1, MPI_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
  values.resize(static_cast<std::size_t>(count));
  check(MPI_Bcast(values.data(), static_cast<int>(count), MPI_INT64_T, root, MPI_COMM_WORLD), "MPI_Bcast");
}

void broadcast(std::string& text, int root) {
  long long count = static_cast<long long>(text.size());
  check(MPI_Bcast(&count, 1, MPI_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(count));
  check(MPI_Bcast(text.data(), static_cast<int>(count), MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
}

void allreduce_sum(std::vector<std::int64_t>& values) {
  check(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
      "MPI_Allreduce");
}

void allreduce_sum(std::vector<double>& values) {
  // Fixed order: gather every rank's vector and add them rank by rank on every rank.
  const std::string own(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  const std::vector<std::string> parts = gather_bytes(own);
  std::vector<double> sum(values.size(), 0.0);
  for (const std::string& part : parts) {
    if (part.size() != own.size()) fail("comm::allreduce_sum: the ranks' vectors differ in length");
    const double* other = reinterpret_cast<const double*>(part.data());
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += other[k];
  }
  values = std::move(sum);
}

void allreduce_max(std::vector<std::int64_t>& values) {
  check(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD),
      "MPI_Allreduce");
}

void allreduce_max(std::vector<double>& values) {
  check(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
      "MPI_Allreduce");
}

std::vector<std::string> allgather(const std::string& text) { return gather_bytes(text); }

void prepare_device_collectives() {
#ifdef KOLLECTIVE_HAVE_NCCL
  if (size() > 1) device_comm();
#endif
}

void allgather_in_place(void* data, std::size_t part_bytes, bool on_device, void* stream) {
  if (size() == 1 || part_bytes == 0) return;
  char* const parts = static_cast<char*>(data);
  if (!on_device) return allgather_host(parts, part_bytes);
#ifdef KOLLECTIVE_HAVE_NCCL
  check_nccl(ncclAllGather(parts + rank() * part_bytes, parts, part_bytes, ncclChar, device_comm(),
                           static_cast<cudaStream_t>(stream)),
             "ncclAllGather");
#else
  (void)stream;
  abort_all("comm::allgather_in_place: device memory, but this build has no NCCL");
#endif
}

void broadcast_in_place(void* data, std::size_t bytes, int root, bool on_device, void* stream) {
  if (size() == 1 || bytes == 0) return;
  if (!on_device) {
    auto [type, count] = byte_units(bytes);
    check(MPI_Bcast(data, count, type, root, MPI_COMM_WORLD), "MPI_Bcast");
    MPI_Type_free(&type);
    return;
  }
#ifdef KOLLECTIVE_HAVE_NCCL
  check_nccl(ncclBroadcast(data, data, bytes, ncclChar, root, device_comm(), static_cast<cudaStream_t>(stream)),
             "ncclBroadcast");
#else
  (void)stream;
  abort_all("comm::broadcast_in_place: device memory, but this build has no NCCL");
#endif
}

void abort_all(const std::string& message, int exit_code) {
  std::fprintf(stderr, "rank %d: %s\n", rank(), message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::exit(exit_code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

void exchange(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives, bool on_device, void* stream) {
  if (!on_device) return exchange_host(sends, receives);
#ifdef KOLLECTIVE_HAVE_NCCL
  ncclComm_t comm = device_comm();
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
  abort_all("comm::exchange: device memory, but this build has no NCCL");
#endif
}

#else  // one rank

Session::Session(int&, char**&) {}
Session::~Session() = default;
bool built_with_mpi() { return false; }
bool built_with_nccl() { return false; }
int rank() { return 0; }
int size() { return 1; }
int local_rank() { return 0; }
int local_size() { return 1; }
void barrier() {}
void broadcast(std::vector<std::int64_t>&, int) {}
void broadcast(std::string&, int) {}
void allreduce_sum(std::vector<std::int64_t>&) {}
void allreduce_sum(std::vector<double>&) {}
void allreduce_max(std::vector<std::int64_t>&) {}
void allreduce_max(std::vector<double>&) {}
std::vector<std::string> allgather(const std::string& text) { return {text}; }
void prepare_device_collectives() {}
void allgather_in_place(void*, std::size_t, bool, void*) {}
void broadcast_in_place(void*, std::size_t, int, bool, void*) {}
void exchange(const std::vector<Transfer>& sends, const std::vector<Transfer>& receives, bool, void*) {
  if (!sends.empty() || !receives.empty()) abort_all("comm::exchange: a single rank has no partners");
}

void abort_all(const std::string& message, int exit_code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::exit(exit_code);
}

#endif

}  // namespace kollective::comm
