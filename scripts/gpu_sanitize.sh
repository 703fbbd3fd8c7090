#!/usr/bin/env bash
# Runs on the GPU machine: builds the CUDA test executable from the sources carried in .deps/src
# (as scripts/gpu_run.sh does), runs it once plainly, then under compute-sanitizer's memcheck,
# racecheck, initcheck and synccheck, each with --error-exitcode=1, and prints a table last.
#   scripts/gpu_sanitize.sh [SECONDS]     (SECONDS: the time the whole script may take, default 570)
# Each tool gets a share of the time left (GNU timeout); a tool stopped by it is reported as such,
# with the tests it finished. Env: KOLLECTIVE_SANITIZE_PLAN overrides the plan, lines of
# "tool|gtest filter|seconds" (tools: memcheck, racecheck, initcheck, synccheck);
# KOLLECTIVE_RACECHECK_REPORT the racecheck report mode (hazard, default, or analysis: one line per
# pair of source lines with its hazard count). The tests are built with -lineinfo (line tables
# only, the same machine code) so that reports name file:line.
# Prepare here first with scripts/gpu_prepare.sh, then carry .deps/src. At most 8 files go to
# $OUT (the device tool's limit): summary.txt, build.log, tests.log and one log per tool.
set -uo pipefail
start=$SECONDS
budget=${1:-570}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
work=$(mktemp -d)
jobs=$(nproc)
deps=$root/.deps
tools=$deps/install/tools
summary=$out/summary.txt
log() { echo "gpu_sanitize: $* ($((SECONDS - start)) s)" | tee -a "$summary" >&2; }
left() { echo $((budget - (SECONDS - start))); }

: >"$summary"
[ -f "$deps/src/REVISION" ] && log "revision $(cat "$deps/src/REVISION")"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$summary"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)
[ -n "$sanitizer" ] || { log "compute-sanitizer not found"; exit 1; }
"$sanitizer" --version | tail -n 1 | tee -a "$summary"
nvcc --version | tail -n 1 | tee -a "$summary"

build_tool() {  # build_tool PACKAGE CMAKE_OPTIONS...  (as in gpu_run.sh)
  local package=$1; shift
  [ -f "$tools/.$package" ] && return 0
  rm -rf "$deps/build/$package" && mkdir -p "$deps/build"
  tar -xJf "$deps/src/$package.tar.xz" -C "$deps/build"
  cmake -S "$deps/build/$package" -B "$deps/build/$package/_build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$tools" -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "$@" &&
    cmake --build "$deps/build/$package/_build" -j "$jobs" && cmake --install "$deps/build/$package/_build" &&
    touch "$tools/.$package"
}
{
  build_tool yaml-cpp -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF &&
    build_tool googletest -DBUILD_GMOCK=ON &&
    build_tool benchmark -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_WERROR=OFF &&
    "$root/scripts/bootstrap_kokkos.sh" cuda >"$work/kokkos_prefix" &&
    prefix=$(tail -n 1 "$work/kokkos_prefix") &&
    cmake --preset cuda -S "$root" -DCMAKE_PREFIX_PATH="$prefix;$tools" -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" \
      -DCMAKE_CXX_FLAGS=-lineinfo &&
    cmake --build "$root/build/cuda" --target kollective_tests_cuda -j "$jobs"
} >"$work/build.log" 2>&1
build_status=$?
tail -n 200 "$work/build.log" >"$out/build.log"
if [ $build_status != 0 ]; then tail -n 40 "$work/build.log"; log "build FAILED (build.log)"; exit 1; fi
log "built"

exe=$root/build/cuda/tests/kollective_tests_cuda
export KOKKOS_DEVICE_ID=0
(cd "$root" && "$exe") >"$out/tests.log" 2>&1
tests_status=$?
log "plain run: exit $tests_status, $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/tests.log" | tr '\n' ' ')"

# tool|filter|seconds: coalition first under racecheck (the measured hazards), then the whole suite
# under each tool, then racecheck over the rest.
plan=${KOLLECTIVE_SANITIZE_PLAN:-"racecheck|*coalition*|75
memcheck|*|120
initcheck|*|70
synccheck|*|70
racecheck|-*coalition*|120"}

rows=()
while IFS='|' read -r tool filter seconds; do
  [ -n "$tool" ] || continue
  limit=$(( $(left) - 10 ))
  [ "$limit" -gt "$seconds" ] && limit=$seconds
  if [ "$limit" -lt 15 ]; then rows+=("$tool|$filter|not run (no time left)|||"); continue; fi
  extra=()
  [ "$tool" = racecheck ] && extra=(--racecheck-report "${KOLLECTIVE_RACECHECK_REPORT:-hazard}")
  t0=$SECONDS
  {
    echo "### $sanitizer --tool $tool ${extra[*]} --error-exitcode=1 --print-limit 200 $exe --gtest_filter='$filter'  (timeout ${limit}s)"
    (cd "$root" && timeout -k 5 "$limit" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode=1 --print-limit 200 \
       "$exe" --gtest_filter="$filter")
    echo "### exit $?"
  } >>"$out/$tool.log" 2>&1
  elapsed=$((SECONDS - t0))
  status=$(grep '^### exit' "$out/$tool.log" | tail -n 1 | cut -d' ' -f3)
  # The last section of the log is this run's.
  section=$(awk '/^### .*--tool/{buf=""} {buf=buf $0 "\n"} END{printf "%s", buf}' "$out/$tool.log")
  finished=$(grep -c '^\[       OK \]' <<<"$section")
  failed=$(grep -c '^\[  FAILED  \] .*(' <<<"$section")
  found=$(grep -E '(ERROR|RACECHECK) SUMMARY' <<<"$section" | tail -n 1 | sed 's/^========= //')
  # Reports printed (also when a timeout cut the summary off): top-level sanitizer lines.
  reports=$(grep -E '^========= [^ ]' <<<"$section" | grep -cvE 'COMPUTE-SANITIZER|SUMMARY|Target application returned|Program hit|^========= $')
  hazards=$(grep -oE '\[[0-9]+ hazards?\]' <<<"$section" | tr -dc '0-9\n' | awk '{n += $1} END {print n + 0}')
  [ "$tool" = racecheck ] && found="${found:-no summary}; $hazards hazards in the reports"
  case $status in 124|137) found="TIMED OUT after ${elapsed}s (${found:-no summary})";; esac
  rows+=("$tool|$filter|exit $status: ${found:-no summary}; $reports reports printed|$finished ok, $failed failed|${elapsed}s")
  log "$tool '$filter': exit $status, ${found:-no summary}"
done <<<"$plan"

{
  echo
  echo "== plain run of kollective_tests_cuda: exit $tests_status =="
  printf '%-10s | %-16s | %-70s | %-18s | %s\n' tool filter result tests time
  for row in "${rows[@]}"; do IFS='|' read -r a b c d e <<<"$row"; printf '%-10s | %-16s | %-70s | %-18s | %s\n' "$a" "$b" "$c" "$d" "$e"; done
} | tee -a "$summary"
rm -rf "$work"
exit $tests_status
