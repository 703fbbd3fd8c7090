#!/usr/bin/env bash
# The sanitized build shared by scripts/sanitize.sh (the tests) and scripts/fuzz.sh (the libFuzzer
# targets): Kokkos built with clang (Serial, bootstrapped), then the `fuzz` preset (clang, ASan +
# UBSan, libFuzzer coverage, -O1 -g1) in build/fuzz. One build serves both, so CI compiles
# Kollective under sanitizers once. Builds the named targets; prints the build folder last.
#   scripts/sanitized_build.sh NAME TARGET...   (NAME: the log's prefix, e.g. sanitize or fuzz)
# Env: KOLLECTIVE_CLANG_CXX (default clang++), KOLLECTIVE_JOBS, KOLLECTIVE_DEPS_DIR (bootstrap cache).
set -euo pipefail
name=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KOLLECTIVE_JOBS:-$(nproc)}
build=$root/build/fuzz
clang_cxx=${KOLLECTIVE_CLANG_CXX:-clang++}  # the compiler bootstrap_kokkos.sh serial-clang uses

"$root/scripts/install_packages.sh" fuzz >&2
prefix=$("$root/scripts/bootstrap_kokkos.sh" serial-clang | tail -n 1)
cache=$build/CMakeCache.txt
if [ ! -f "$cache" ] || ! grep -q "CMAKE_PREFIX_PATH:UNINITIALIZED=$prefix\$" "$cache"; then
  rm -rf "$cache" "$build/CMakeFiles"  # a new Kokkos (or compiler) needs a fresh cache
  mkdir -p "$root/build"
  (cd "$root" && cmake --preset fuzz -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$clang_cxx") \
    >"$root/build/configure-fuzz.log" 2>&1 || { tail -n 30 "$root/build/configure-fuzz.log" >&2; exit 1; }
fi
echo "$name: building $* (preset fuzz)" >&2
cmake --build "$build" -j "$jobs" "${@/#/--target=}" >"$root/build/build-$name.log" 2>&1 \
  || { grep -E -A6 "error" "$root/build/build-$name.log" | head -n 60 >&2; exit 1; }
echo "$build"
