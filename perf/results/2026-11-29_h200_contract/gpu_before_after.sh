#!/usr/bin/env bash
# Device machine: the driver at this tree's revision (after) and at 56a1b74 (before, carried as
# .deps/src/before.tar.xz) built against one CUDA Kokkos (build), then configs/gpu_anchors.yaml
# run by both and compared row by row (run).
set -uo pipefail
root=$(pwd); out=${OUT:-$root/gpu-out}; mkdir -p "$out"
b=.deps/before  # ignored: kept between calls
case ${1:-build} in
build)
  mkdir -p $b && tar -xJf .deps/src/before.tar.xz -C $b
  mkdir -p $b/.deps/src && cp .deps/src/*.tar.xz $b/.deps/src/ && echo 56a1b74 > $b/.deps/src/REVISION
  mkdir -p .deps/install .deps/build && ln -sfn "$root/.deps/install" $b/.deps/install && ln -sfn "$root/.deps/build" $b/.deps/build
  (KOLLECTIVE_GPU_TARGETS=kollective KOLLECTIVE_GPU_TESTS=cli_quickstart OUT=/tmp/after_build scripts/gpu_run.sh > /tmp/after_build.txt 2>&1; echo "after build rc $?" >> /tmp/after_build.txt) &
  while [ ! -f /tmp/after_build/configure.log ] && kill -0 $! 2>/dev/null; do sleep 5; done
  [ -x build/cuda/drivers/kollective ] && touch /tmp/after_build/configure.log 2>/dev/null
  (cd $b && KOLLECTIVE_GPU_TARGETS=kollective KOLLECTIVE_GPU_TESTS=cli_quickstart OUT=/tmp/before_build scripts/gpu_run.sh > /tmp/before_build.txt 2>&1; echo "before build rc $?" >> /tmp/before_build.txt) &
  wait
  tail -n 5 /tmp/after_build.txt /tmp/before_build.txt | tee "$out/build.txt"
  ls -la build/cuda/drivers/kollective $b/build/cuda/drivers/kollective | tee -a "$out/build.txt";;
run)
  ls $b/build/cuda/drivers/kollective build/cuda/drivers/kollective || exit 1
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv | tee "$out/gpu.csv"
  for pass in 1; do
    rm -rf /tmp/before_anchors /tmp/after_anchors
    ./build/cuda/drivers/kollective run configs/gpu_anchors.yaml --out /tmp/after_anchors --quiet > /tmp/after_run.txt 2>&1
    (cd $b && KOLLECTIVE_REVISION=56a1b74 ./build/cuda/drivers/kollective run configs/gpu_anchors.yaml --out /tmp/before_anchors --quiet) > /tmp/before_run.txt 2>&1
  done
  python3 - /tmp/before_anchors /tmp/after_anchors <<'PY' | tee "$out/compare.txt"
import csv, glob, os, sys
before, after = sys.argv[1:3]
answers = ["winners", "ranking_head", "ranking_groups", "distance", "lower_bound", "consensus", "optimal_rankings",
           "optimum", "structure", "objective", "iterations", "cg_steps"]
times = ["solve_s", "paths_s", "dp_layers_s", "setup_s", "hv_s"]
for path in sorted(glob.glob(os.path.join(before, "*.csv"))):
    name = os.path.basename(path)
    other = os.path.join(after, name)
    if not os.path.exists(other):
        print(f"{name}: missing after"); continue
    rows_b = list(csv.DictReader(open(path))); rows_a = list(csv.DictReader(open(other)))
    for b, a in zip(rows_b, rows_a):
        differ = [c for c in answers if c in b and c in a and b[c] != a[c]]
        size = b.get("alternatives") or b.get("agents") or b.get("documents")
        ratios = "  ".join(f"{c} {float(b[c]):.4f}->{float(a[c]):.4f} ({float(a[c]) / float(b[c]):.3f}x)"
                           for c in times if b.get(c) and a.get(c) and float(b[c]) > 0)
        print(f"{b['run']:<24} n={size:>8}  answers {'agree' if not differ else 'DIFFER: ' + ','.join(differ)}  {ratios}")
PY
  for d in before after; do cat /tmp/${d}_anchors/*.csv > "$out/${d}_tables.csv" 2>/dev/null; cp /tmp/${d}_run.txt "$out/"; done;;
esac
