#!/usr/bin/env bash
# Runs the fuzz targets built by scripts/fuzz.sh (or copied elsewhere, e.g. to a many-core
# machine), each from its committed seeds for SECONDS, up to JOBS targets at once (default:
# one per core). One line per target, then "fuzz: N passed, M failed"; the exit status is 1 on
# any finding (crash, sanitizer report, leak, timeout, out-of-memory), whose input is saved
# under FINDINGS/<target>/ next to FINDINGS/<target>.log.
#   scripts/fuzz_run.sh BIN_DIR SECONDS [JOBS]
# Env: KOLLECTIVE_FUZZ_TARGETS (a space-separated subset), KOLLECTIVE_FUZZ_FINDINGS (default
# build/fuzz/findings).
set -euo pipefail
bin=$1 seconds=$2 jobs=${3:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
fuzz_dir=$root/tests/fuzz
findings=${KOLLECTIVE_FUZZ_FINDINGS:-$root/build/fuzz/findings}

# Largest input per target: enough for every seed and a few hundred lines, small enough to be fast.
declare -A max_len=([preflib_stream]=4096 [preflib_file]=4096 [pairwise_csv]=2048 [lolib]=2048 [letor]=4096 [model]=1024
                    [csg_text]=2048 [csg_binary]=8224 [bids]=2048 [config]=4096)
declare -A dict=([preflib_stream]=preflib [preflib_file]=preflib)
targets=${KOLLECTIVE_FUZZ_TARGETS:-preflib_stream preflib_file pairwise_csv lolib letor model csg_text csg_binary bids config}

# Scratch: the growing corpus (the committed seeds are only read) and the targets' temporary files.
work=$(mktemp -d "${TMPDIR:-/tmp}/kollective-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

fuzz_one() {  # fuzz_one TARGET: runs it, writes one result line to $work/TARGET.result
  local target=$1 status=0
  mkdir -p "$work/corpus/$target" "$work/tmp/$target" "$findings/$target"
  local options=(-max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048
                 -print_final_stats=1 -artifact_prefix="$findings/$target/")
  local dict_file=$fuzz_dir/dict/${dict[$target]:-$target}.dict
  [ -f "$dict_file" ] && options+=(-dict="$dict_file")
  local log=$findings/$target.log
  TMPDIR=$work/tmp/$target "$bin/fuzz_$target" "${options[@]}" "$work/corpus/$target" "$fuzz_dir/corpus/$target" \
    >"$log" 2>&1 || status=$?
  local runs cov
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)
  if [ "$status" -eq 0 ]; then
    echo "fuzz: $target: ok, ${runs:-?} inputs in ${seconds}s, coverage ${cov:-?} edges" >"$work/$target.result"
  else
    local pattern='ERROR: (Address|Leak)Sanitizer|ERROR: libFuzzer|runtime error:|invariant broken|terminate called'
    local what input
    what=$(grep -m1 -E "$pattern" "$log" || true)
    input=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -n 1 | cut -d' ' -f5 || true)
    echo "fuzz: $target: FAILED (exit $status): ${what:-see $log}; input ${input:-none}; log $log" >"$work/$target.result"
  fi
}

running=0
for target in $targets; do
  [ -n "${max_len[$target]:-}" ] || { echo "fuzz: unknown target '$target'" >&2; exit 2; }
  [ -x "$bin/fuzz_$target" ] || { echo "fuzz: no executable $bin/fuzz_$target" >&2; exit 2; }
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait || true
passed=0 failed=0
for target in $targets; do
  line=$(cat "$work/$target.result" 2>/dev/null || echo "fuzz: $target: FAILED (no result)")
  echo "$line"
  case $line in *": ok,"*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
