#ifndef KOLLECTIVE_CORE_MEMORY_HPP
#define KOLLECTIVE_CORE_MEMORY_HPP

/// \file Memory.hpp
/// Byte estimates and the capacity check made before large allocations, so work that will not
/// fit is refused with a message saying how much it needs instead of failing mid-run.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kollective {

/// The memory a check counts: the host's (every space the host can read: HostSpace, and pinned
/// or unified memory) or the GPU's.
enum class MemoryKind { host, gpu };
template <class MemorySpace>
constexpr MemoryKind memory_kind() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible ? MemoryKind::host : MemoryKind::gpu;
}

/// Bytes currently free in `kind` of memory (GPU: cudaMemGetInfo; host: this process's share of
/// MemAvailable, split evenly over set_processes_per_node). Tests may cap it with
/// KOLLECTIVE_MEMORY_LIMIT (bytes).
std::int64_t available_bytes(MemoryKind kind);
/// available_bytes of the default execution space's memory (the driver's checks).
std::int64_t available_device_bytes();

/// How many processes of the program run on this node, each making its own allocations (1 unless
/// set; the driver sets its MPI ranks on the node): host memory checks count on an even share.
void set_processes_per_node(int processes);

/// A /proc/meminfo entry ("MemTotal", "MemAvailable") in bytes; 0 when unknown.
std::int64_t host_meminfo_bytes(const std::string& key);

/// "3.25 GiB" style.
std::string format_bytes(double bytes);

/// Product a*b in 64 bits; fails with `what` if it overflows.
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& what);

/// Whether `bytes` fit in what `kind` of memory has available, keeping a small safety margin
/// (require_memory's test, without its error).
bool memory_fits(MemoryKind kind, std::int64_t bytes);
/// Throws a kollective::Error naming `what`, the bytes needed and the bytes free when `bytes`
/// exceeds what `kind` of memory has available (keeping a small safety margin).
void require_memory(MemoryKind kind, std::int64_t bytes, const std::string& what);
/// require_memory of the default execution space's memory (the driver's checks).
void require_device_memory(std::int64_t bytes, const std::string& what);
/// The same check against this rank's share of the host's MemAvailable (also capped by
/// KOLLECTIVE_MEMORY_LIMIT).
void require_host_memory(std::int64_t bytes, const std::string& what);

}  // namespace kollective

#endif
