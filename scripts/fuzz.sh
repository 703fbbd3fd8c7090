#!/usr/bin/env bash
# Fuzz every file reader and the config validation (tests/fuzz/README.md): bootstraps Kokkos
# built with clang (Serial), builds the `fuzz` preset (libFuzzer + ASan + UBSan), then runs each
# target from its committed seeds. Any crash, sanitizer report, leak, timeout or out-of-memory is
# a finding: its input is saved under build/fuzz/findings/<target>/ and the script fails.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30)
# Env: KOLLECTIVE_FUZZ_TARGETS (space-separated subset), KOLLECTIVE_FUZZ_FINDINGS (where crash
# inputs go), KOLLECTIVE_CLANG_CXX (default clang++), KOLLECTIVE_JOBS (build jobs),
# KOLLECTIVE_DEPS_DIR (bootstrap cache).
set -euo pipefail
seconds=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KOLLECTIVE_JOBS:-$(nproc)}
build=$root/build/fuzz
findings=${KOLLECTIVE_FUZZ_FINDINGS:-$build/findings}
fuzz_dir=$root/tests/fuzz
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

# Largest input per target: enough for every seed and a few hundred lines, small enough to be fast.
declare -A max_len=([preflib_stream]=4096 [preflib_file]=4096 [pairwise_csv]=2048 [letor]=4096 [model]=1024
                    [csg_text]=2048 [csg_binary]=8224 [bids]=2048 [config]=4096)
declare -A dict=([preflib_stream]=preflib [preflib_file]=preflib)
targets=${KOLLECTIVE_FUZZ_TARGETS:-preflib_stream preflib_file pairwise_csv letor model csg_text csg_binary bids config}

# Scratch: the growing corpus (the committed seeds are only read) and the targets' temporary files.
work=$(mktemp -d "${TMPDIR:-/tmp}/kollective-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0 failed=0
for target in $targets; do
  [ -n "${max_len[$target]:-}" ] || { echo "fuzz: unknown target '$target'" >&2; exit 2; }
  mkdir -p "$work/corpus/$target" "$work/tmp" "$findings/$target"
  options=(-max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048
           -print_final_stats=1 -artifact_prefix="$findings/$target/")
  dict_file=$fuzz_dir/dict/${dict[$target]:-$target}.dict
  [ -f "$dict_file" ] && options+=(-dict="$dict_file")
  log=$findings/$target.log
  status=0
  TMPDIR=$work/tmp "$build/tests/fuzz/fuzz_$target" "${options[@]}" "$work/corpus/$target" "$fuzz_dir/corpus/$target" \
    >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "fuzz: $target: ok, ${runs:-?} inputs in ${seconds}s, coverage ${cov:-?} edges"
  else
    failed=$((failed + 1))
    pattern='ERROR: (Address|Leak)Sanitizer|ERROR: libFuzzer|runtime error:|invariant broken|terminate called'
    what=$(grep -m1 -E "$pattern" "$log" || true)
    input=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -n 1 | cut -d' ' -f5 || true)
    echo "fuzz: $target: FAILED (exit $status): ${what:-see $log}; input ${input:-none}; log $log"
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
