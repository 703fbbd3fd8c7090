#ifndef KOLLECTIVE_CORE_RUNTIMEINFO_HPP
#define KOLLECTIVE_CORE_RUNTIMEINFO_HPP

/// \file RuntimeInfo.hpp
/// What every result row carries: backend, device, Kokkos version, git revision.

#include <cstdint>
#include <string>

namespace kollective {

/// The revision this binary was built from (generated at build time).
const char* git_revision();

struct RuntimeInfo {
  std::string backend;                   ///< default execution space name ("Cuda", "OpenMP", "Serial")
  std::string device;                    ///< GPU name, or CPU model with thread count
  std::string kokkos_version;            ///< e.g. "3.4.1"
  std::string kokkos_kernels_version;    ///< as found by CMake
  std::string yaml_cpp_version;          ///< as found by CMake
  std::string revision;                  ///< git describe of the build
  std::int64_t device_memory_bytes = 0;  ///< total memory of the default memory space's device
  int concurrency = 1;                   ///< Kokkos concurrency of the default execution space
};

/// Queried once after Kokkos::initialize.
const RuntimeInfo& runtime_info();

}  // namespace kollective

#endif
