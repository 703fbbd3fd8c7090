#!/usr/bin/env bash
# The unit and CLI tests (host, openmp, cli_quickstart, malformed_inputs, ...) built with ASan +
# UBSan on the OpenMP backend (preset openmp-asan, -O1 -g1; Kokkos itself is not instrumented). The
# Serial backend's device tests run the same templates on another host space, and the multi-rank
# tests (comm_, distributed_) the same solvers shared over ranks: they run uninstrumented in
# `scripts/kollective test` and CI's MPI suite, and are left out here (CI's time), as are the three
# largest coalition searches (tests/CMakeLists.txt, KOLLECTIVE_SANITIZED_SKIP). Any memory error, leak or undefined
# behaviour aborts the test that hit it, so ctest fails.
#   scripts/sanitize.sh
# Env: Kokkos_ROOT (use an installed Kokkos instead of bootstrapping), KOLLECTIVE_JOBS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KOLLECTIVE_JOBS:-$(nproc)}
build=$root/build/openmp-asan

"$root/scripts/install_packages.sh"
prefix=${Kokkos_ROOT:-$("$root/scripts/bootstrap_kokkos.sh" openmp | tail -n 1)}
if [ ! -f "$build/CMakeCache.txt" ] || ! grep -q "CMAKE_PREFIX_PATH:UNINITIALIZED=$prefix\$" "$build/CMakeCache.txt"; then
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
  mkdir -p "$root/build"
  (cd "$root" && cmake --preset openmp-asan -DCMAKE_PREFIX_PATH="$prefix") >"$root/build/configure-openmp-asan.log" 2>&1 \
    || { tail -n 30 "$root/build/configure-openmp-asan.log" >&2; exit 1; }
fi
echo "sanitize: building openmp-asan" >&2
targets=(kollective kollective_tests_host kollective_tests_openmp)
cmake --build "$build" -j "$jobs" "${targets[@]/#/--target=}" >"$root/build/build-openmp-asan.log" 2>&1 \
  || { grep -E -A6 "error" "$root/build/build-openmp-asan.log" | head -n 60 >&2; exit 1; }
cd "$root"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  OMP_PROC_BIND=${OMP_PROC_BIND:-false} ctest --preset openmp-asan -j "$jobs" -E '^(serial|comm|distributed)_'
echo "sanitize: tests passed under ASan + UBSan"
