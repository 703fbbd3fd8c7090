#!/usr/bin/env bash
# Issue #54 item 4 on one GPU: Kemeny / LOP anytime answers on large instances (RandA1 and the like)
# with the iterated local search's chains on the device, `method: auto`, one instance at a time.
#   perf/gpu_anytime.sh build               builds the CUDA driver (CLP included)
#   perf/gpu_anytime.sh tests               builds the CUDA tests (after build), runs the Kemeny ones
#   perf/gpu_anytime.sh run DIR NAMES...    runs each instance DIR/NAME (LOLIB's format) with
#                                           time_limit SECONDS_LIMIT (default 60) and prints a table,
#                                           with the best known value where perf/lolib/best_known.csv
#                                           has NAME (DRIVER=PATH runs another build's driver: the
#                                           2-core CPU's OpenMP one)
# Prepare with scripts/gpu_prepare.sh and carry .deps/src and DIR (the instances have no licence to
# redistribute: keep them git-ignored). EXTRA_ENV="VAR=value ..." is set for the runs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
driver=${DRIVER:-$root/build/cuda/drivers/kollective}
case "${1:-}" in
  build)
    KOLLECTIVE_GPU_TARGETS=kollective KOLLECTIVE_GPU_TESTS=no-test-matches "$root/scripts/gpu_run.sh" >"$out/build.txt" 2>&1
    status=$?
    tail -n 5 "$out/build.txt"
    ls -la "$driver" || exit 1
    exit $status
    ;;
  tests)  # configure again: the links to the sources (kollective_include_folder) may not survive a copy
    cmake "$root/build/cuda" >"$out/tests_configure.log" 2>&1
    cmake --build "$root/build/cuda" --target kollective_tests_cuda -j "$(nproc)" >"$out/tests_build.log" 2>&1 ||
      { tail -n 30 "$out/tests_build.log"; exit 1; }
    "$root/build/cuda/tests/kollective_tests_cuda" --gtest_filter='*kemeny*' 2>&1 | tail -n 40
    exit "${PIPESTATUS[0]}"
    ;;
  run) ;;
  *) echo "usage: perf/gpu_anytime.sh build | tests | run DIR NAMES..." >&2; exit 2 ;;
esac
shift
dir=$(cd "$1" && pwd); shift
seconds=${SECONDS_LIMIT:-60}
work=$root/build/anytime
mkdir -p "$work"
for name in "$@"; do
  config=$work/$name.yaml
  cat >"$config" <<EOF
title: anytime $name, $seconds s
runs:
  - name: $name
    algorithm: kemeny
    input: {lolib: $dir/$name}
    options: {method: auto, time_limit: $seconds, count: false}
    verify: false
    write: {rankings: false}
EOF
  tag=$name${TAG:+_$TAG}
  rm -rf "$work/$tag"
  start=$SECONDS
  env ${EXTRA_ENV:-} "$driver" run "$config" --out "$work/$tag" --quiet >"$out/$tag.log" 2>&1
  echo "$tag: exit $? after $((SECONDS - start)) s" >&2
  cp "$work/$tag/$name.csv" "$out/$tag.csv" 2>/dev/null
done
python3 - "$out" "${TAG:-}" "$root/perf/lolib/best_known.csv" "$@" <<'EOF'
import csv, os, sys
from decimal import Decimal  # lop_value is written as a float (5012504.0)
out, suffix, known_csv, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
known = {row["instance"]: int(row["best_known"]) for row in csv.DictReader(open(known_csv))}
print("| run | lop_value | best known | below it | lop_upper_bound | gap | lp_s | lp_rounds | solve_s | backend |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for tag in (name + ("_" + suffix if suffix else "") for name in names):
    path = f"{out}/{tag}.csv"  # only this call's runs: gpu_run.sh's gpu.csv may lie beside them
    if not os.path.exists(path):
        print(f"| {tag} | no table (see {tag}.log) |")
        continue
    for row in csv.DictReader(open(path)):
        name = tag[:-len(suffix) - 1] if suffix else tag
        best = known.get(name)
        below = f"{100 * (best - int(Decimal(row['lop_value']))) / best:.3f}%" if best else ""
        print(f"| {tag} | {row['lop_value']} | {best or ''} | {below} | {row['lop_upper_bound']} | {row['gap']} | "
              f"{row['lp_s']} | {row['lp_rounds']} | {row['solve_s']} | {row['backend']} |")
EOF
