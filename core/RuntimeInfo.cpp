#include "kollective/core/RuntimeInfo.hpp"

#include <Kokkos_Core.hpp>

#include <fstream>
#include <string>

#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Memory.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kollective {

namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown CPU";
}

RuntimeInfo query() {
  RuntimeInfo info;
  using Space = Kokkos::DefaultExecutionSpace;
  info.backend = Space::name();
  info.kokkos_version = kokkos_version_string();
  info.kokkos_kernels_version = KOLLECTIVE_KOKKOSKERNELS_VERSION;
  info.yaml_cpp_version = KOLLECTIVE_YAML_CPP_VERSION;
  info.revision = git_revision();
  info.concurrency = Space().concurrency();
  info.device =
      cpu_model() + " (" + std::to_string(info.concurrency) + (info.concurrency == 1 ? " thread)" : " threads)");
  info.device_memory_bytes = host_meminfo_bytes("MemTotal");
#ifdef KOKKOS_ENABLE_CUDA
  if (std::is_same<Space, Kokkos::Cuda>::value) {
    int device = 0;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&properties, device) == cudaSuccess) {
      info.device = properties.name;
      info.device_memory_bytes = static_cast<std::int64_t>(properties.totalGlobalMem);
    }
  }
#endif
  return info;
}

}  // namespace

const RuntimeInfo& runtime_info() {
  static const RuntimeInfo info = query();
  return info;
}

}  // namespace kollective
