#ifndef KOLLECTIVE_TESTS_CATEGORY_SERIAL_HPP
#define KOLLECTIVE_TESTS_CATEGORY_SERIAL_HPP
#include <Kokkos_Core.hpp>
#define TEST_CATEGORY serial
#define TEST_EXECSPACE Kokkos::Serial
#define TEST_MEMSPACE Kokkos::Serial::memory_space
#endif
