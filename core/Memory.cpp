#include "kollective/core/Memory.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

#include "kollective/core/Error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kollective {

namespace {

int processes_on_node = 1;

/// This process's share of the host's MemAvailable: the processes on a node run at once, each
/// making its own allocations, so each may count on an even share.
std::int64_t host_available_bytes() {
  const std::int64_t available = host_meminfo_bytes("MemAvailable");
  if (available <= 0) return std::numeric_limits<std::int64_t>::max();  // unknown: do not refuse
  return available / processes_on_node;
}

/// Names host memory in messages, saying when it is a share.
std::string host_memory_name(const std::string& name) {
  const int ranks = processes_on_node;
  return ranks == 1 ? name : name + " (this rank's share: " + std::to_string(ranks) + " ranks run on this node)";
}

std::int64_t limit_from_environment() {
  const char* text = std::getenv("KOLLECTIVE_MEMORY_LIMIT");
  if (text == nullptr || *text == '\0') return std::numeric_limits<std::int64_t>::max();
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value <= 0) fail("KOLLECTIVE_MEMORY_LIMIT='", text, "' is not a positive byte count");
  return value;
}

}  // namespace

void set_processes_per_node(int processes) {
  if (processes < 1) fail("set_processes_per_node: ", processes, " processes (at least 1)");
  processes_on_node = processes;
}

std::int64_t host_meminfo_bytes(const std::string& key) {
  std::ifstream meminfo("/proc/meminfo");
  std::string name, unit;
  std::int64_t kib = 0;
  while (meminfo >> name >> kib >> unit) {
    if (name == key + ":") return kib * 1024;
  }
  return 0;
}

namespace {
constexpr MemoryKind default_memory = memory_kind<Kokkos::DefaultExecutionSpace::memory_space>();
}  // namespace

std::int64_t available_bytes(MemoryKind kind) {
  std::int64_t available = 0;
  if (kind == MemoryKind::host) {
    available = host_available_bytes();
  } else {
#ifdef KOKKOS_ENABLE_CUDA
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) fail("cudaMemGetInfo failed");
    available = static_cast<std::int64_t>(free_bytes);
#else
    fail("no GPU memory in this build (internal error)");
#endif
  }
  const std::int64_t limit = limit_from_environment();
  return available < limit ? available : limit;
}

std::int64_t available_device_bytes() { return available_bytes(default_memory); }

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 6) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", bytes, units[unit]);
  return text;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t product = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product)) {
    fail(what, ": size ", a, " x ", b, " overflows 64-bit byte counts");
  }
  return product;
}

namespace {

/// Whether `bytes` fit in `available` with 5% (at least 64 MiB) kept free for the runtime,
/// scratch and small buffers.
bool fits(std::int64_t bytes, std::int64_t available) {
  return bytes <= available - std::max<std::int64_t>(available / 20, 64ll << 20);
}

/// Fails unless `bytes` fit in `available` (fits).
void require_fits(std::int64_t bytes, std::int64_t available, const std::string& what, const std::string& memory) {
  if (!fits(bytes, available)) {
    fail(what, " needs ", format_bytes(static_cast<double>(bytes)), " of ", memory, " but only ",
         format_bytes(static_cast<double>(available)), " is available");
  }
}

}  // namespace

bool memory_fits(MemoryKind kind, std::int64_t bytes) { return fits(bytes, available_bytes(kind)); }

void require_memory(MemoryKind kind, std::int64_t bytes, const std::string& what) {
  const std::string memory = kind == MemoryKind::host ? host_memory_name("host memory") : "GPU memory";
  require_fits(bytes, available_bytes(kind), what, memory);
}

void require_device_memory(std::int64_t bytes, const std::string& what) { require_memory(default_memory, bytes, what); }

void require_host_memory(std::int64_t bytes, const std::string& what) {
  // An unknown MemAvailable counts as unlimited (host_available_bytes): only the limit can refuse.
  require_fits(bytes, std::min(host_available_bytes(), limit_from_environment()), what,
               host_memory_name("host memory"));
}

}  // namespace kollective
