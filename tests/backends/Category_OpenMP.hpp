#ifndef KOLLECTIVE_TESTS_CATEGORY_OPENMP_HPP
#define KOLLECTIVE_TESTS_CATEGORY_OPENMP_HPP
#include <Kokkos_Core.hpp>
#define TEST_CATEGORY openmp
#define TEST_EXECSPACE Kokkos::OpenMP
#define TEST_MEMSPACE Kokkos::OpenMP::memory_space
#endif
