# Installation: the libraries, the public headers under include/kollective/ (as the sources
# include them), the CMake package and, where built, the kollective command.
# find_package(Kollective) then gives Kollective::Kollective (everything), Kollective::algorithms
# and Kollective::core, the targets add_subdirectory gives too.
include(CMakePackageConfigHelpers)
set(package_folder ${CMAKE_INSTALL_LIBDIR}/cmake/Kollective)

set(exported kollective_core kollective_algorithms kollective_library)
if(TARGET kollective_clp)  # static libraries pass their private dependencies to the final link
  set_target_properties(kollective_clp PROPERTIES EXPORT_NAME clp)
  list(APPEND exported kollective_clp)
endif()
install(TARGETS ${exported} EXPORT KollectiveTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The headers: kollective/Kollective.hpp (the public API) and core/comm/Mpi.hpp (from_mpi) with
# everything they include, as they include it; the rest (the driver's, the tests' helpers) stays
# in the tree. A header whose includes change makes CMake configure again, so the set follows.
function(kollective_header_closure out)
  set(pending ${ARGN})
  set(found)
  while(pending)
    list(POP_FRONT pending header)
    if(header IN_LIST found)
      continue()
    endif()
    list(APPEND found ${header})
    file(STRINGS ${PROJECT_SOURCE_DIR}/${header} lines REGEX "^#include \"kollective/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^#include \"kollective/([^\"]+)\".*" "\\1" included "${line}")
      list(APPEND pending ${included})
    endforeach()
  endwhile()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
kollective_header_closure(public_headers algorithms/Kollective.hpp core/comm/Mpi.hpp)
list(REMOVE_ITEM public_headers algorithms/Kollective.hpp)
foreach(header IN LISTS public_headers)
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kollective/${folder})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${header})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/algorithms/Kollective.hpp)
install(FILES ${PROJECT_SOURCE_DIR}/algorithms/Kollective.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kollective)
install(EXPORT KollectiveTargets NAMESPACE Kollective:: DESTINATION ${package_folder})

# What the package must find again at the consumer: the same Kokkos devices, and MPI, CUDA (for
# NCCL) and CLP as this build used them.
set(KOLLECTIVE_WITH_NCCL OFF)
if(KOLLECTIVE_ENABLE_MPI AND Kokkos_ENABLE_CUDA)
  set(KOLLECTIVE_WITH_NCCL ON)
endif()
set(KOLLECTIVE_WITH_LP OFF)
if(TARGET kollective_clp)
  set(KOLLECTIVE_WITH_LP ON)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KollectiveConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/KollectiveConfig.cmake INSTALL_DESTINATION ${package_folder})
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/KollectiveConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/KollectiveConfig.cmake ${PROJECT_BINARY_DIR}/KollectiveConfigVersion.cmake
        DESTINATION ${package_folder})

if(TARGET kollective)
  install(TARGETS kollective RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
