#!/usr/bin/env bash
# A downstream project (install_test/) solves the four problems on its own Views, built twice:
# against the package `cmake --install` makes of build/<preset>, and with Kollective's sources
# added by add_subdirectory; then configured with them added by FetchContent (whose build is
# add_subdirectory's). Needs build/<preset> configured and built, as `scripts/kollective test`
# (or `build`) leaves it; the consumers use its Kokkos and compiler.
# Usage: scripts/install_test.sh [PRESET] (default openmp). Work folder: build/install-test-PRESET.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
preset=${1:-openmp}
build=$root/build/$preset
work=$root/build/install-test-$preset
jobs=${KOLLECTIVE_JOBS:-$(nproc)}
[ -f "$build/CMakeCache.txt" ] || { echo "install_test: build/$preset is not configured (scripts/kollective build)" >&2; exit 1; }
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
kokkos_prefix=$(cd "$(cached Kokkos_DIR)/../../.." && pwd)
prefixes="$(cached CMAKE_PREFIX_PATH);$kokkos_prefix"  # the build's (CLP built from source on a GPU machine)
common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$(cached CMAKE_CXX_COMPILER)")
rm -rf "$work"
mkdir -p "$work"
export OMP_PROC_BIND=false

echo "install_test: installing build/$preset into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; exit 1; }
echo "install_test: find_package(Kollective)"
cmake -S "$root/install_test" -B "$work/installed" "${common[@]}" -DCMAKE_PREFIX_PATH="$work/prefix;$prefixes" >/dev/null
cmake --build "$work/installed" -j "$jobs" >/dev/null
"$work/installed/four_problems"

echo "install_test: add_subdirectory"
# Unoptimized: this consumer compiles Kollective's sources again, and what it checks is the wiring.
cmake -S "$root/install_test" -B "$work/subdirectory" "${common[@]}" -DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" -DKOLLECTIVE_SOURCE_DIR="$root" \
  -DCMAKE_PREFIX_PATH="$prefixes" -DKOLLECTIVE_LP="$(cached KOLLECTIVE_LP)" >/dev/null
cmake --build "$work/subdirectory" -j "$jobs" >/dev/null
"$work/subdirectory/four_problems"
echo "install_test: FetchContent (configured)"
cmake -S "$root/install_test" -B "$work/fetch" "${common[@]}" -DKOLLECTIVE_SOURCE_DIR="$root" -DKOLLECTIVE_FETCH=ON \
  -DCMAKE_PREFIX_PATH="$prefixes" -DKOLLECTIVE_LP="$(cached KOLLECTIVE_LP)" >/dev/null
echo "install_test: both consumers built and solved the four problems; FetchContent configured them alike"
