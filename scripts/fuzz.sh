#!/usr/bin/env bash
# Fuzz every file reader and the config validation (tests/fuzz/README.md): bootstraps Kokkos
# built with clang (Serial), builds the `fuzz` preset (libFuzzer + ASan + UBSan), then runs each
# target from its committed seeds (scripts/fuzz_run.sh: one target per core at a time). Any crash,
# sanitizer report, leak, timeout or out-of-memory is a finding: its input is saved under
# build/fuzz/findings/<target>/ and the script fails.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30)
# Env: KOLLECTIVE_FUZZ_TARGETS (space-separated subset), KOLLECTIVE_FUZZ_FINDINGS (where crash
# inputs go), KOLLECTIVE_CLANG_CXX (default clang++), KOLLECTIVE_JOBS (build jobs),
# KOLLECTIVE_DEPS_DIR (bootstrap cache).
set -euo pipefail
seconds=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KOLLECTIVE_JOBS:-$(nproc)}
build=$root/build/fuzz
clang_cxx=${KOLLECTIVE_CLANG_CXX:-clang++}  # the compiler bootstrap_kokkos.sh serial-clang uses

"$root/scripts/install_packages.sh" fuzz
prefix=$("$root/scripts/bootstrap_kokkos.sh" serial-clang | tail -n 1)
cache=$build/CMakeCache.txt
if [ ! -f "$cache" ] || ! grep -q "CMAKE_PREFIX_PATH:UNINITIALIZED=$prefix\$" "$cache"; then
  rm -rf "$cache" "$build/CMakeFiles"  # a new Kokkos (or compiler) needs a fresh cache
  mkdir -p "$root/build"
  (cd "$root" && cmake --preset fuzz -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$clang_cxx") \
    >"$root/build/configure-fuzz.log" 2>&1 || { tail -n 30 "$root/build/configure-fuzz.log" >&2; exit 1; }
fi
echo "fuzz: building the fuzz preset" >&2
cmake --build "$build" -j "$jobs" >"$root/build/build-fuzz.log" 2>&1 \
  || { grep -E -A6 "error" "$root/build/build-fuzz.log" | head -n 60 >&2; exit 1; }

"$root/scripts/fuzz_run.sh" "$build/tests/fuzz" "$seconds" "$jobs"
