#!/usr/bin/env bash
# The unit and CLI tests (host, serial, cli_quickstart, malformed_inputs, ...) built with ASan +
# UBSan by clang on the Serial backend, in the build the fuzz targets share (scripts/sanitized_build.sh:
# preset fuzz, -O1 -g1; Kokkos itself is not instrumented). The OpenMP backend's device tests run
# the same templates on another host space, and the multi-rank tests (comm_, distributed_) the same
# solvers shared over ranks: they run uninstrumented in `scripts/kollective test` and CI's MPI
# suite, and are left out here (CI's time), as are the three largest coalition searches
# (tests/CMakeLists.txt, KOLLECTIVE_SANITIZED_SKIP). Any memory error, leak or undefined behaviour
# aborts the test that hit it, so ctest fails. `cmake --preset openmp-asan` is the same with gcc on
# OpenMP, by hand.
#   scripts/sanitize.sh
# Env: KOLLECTIVE_JOBS, KOLLECTIVE_CLANG_CXX.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KOLLECTIVE_JOBS:-$(nproc)}

"$root/scripts/sanitized_build.sh" sanitize kollective kollective_tests_host kollective_tests_serial >/dev/null
cd "$root"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset fuzz -j "$jobs" -E '^(comm|distributed)_'
echo "sanitize: tests passed under ASan + UBSan"
