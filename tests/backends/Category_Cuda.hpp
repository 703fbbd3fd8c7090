#ifndef KOLLECTIVE_TESTS_CATEGORY_CUDA_HPP
#define KOLLECTIVE_TESTS_CATEGORY_CUDA_HPP
#include <Kokkos_Core.hpp>
#define TEST_CATEGORY cuda
#define TEST_EXECSPACE Kokkos::Cuda
#define TEST_MEMSPACE Kokkos::Cuda::memory_space
#endif
