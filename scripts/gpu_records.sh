#!/usr/bin/env bash
# Makes this repository's records on the GPU machine (device tool; run scripts/gpu_prepare.sh
# here first and carry .deps/src). Builds the CUDA and the OpenMP driver (the OpenMP build starts
# once the shared tools are built), then makes each record named:
#   anchors    configs/gpu_anchors.yaml on CUDA                        -> anchors/
#   backends   configs/backend_anchors.yaml on OpenMP (every core of the host), then on CUDA,
#              and `kollective compare openmp cuda`                     -> backends/
# Each record folder holds the run's results.sqlite and Markdown tables; where the tree already
# holds a record of that name (perf/results/<record>/h200), the new run is compared with it.
# Everything goes to $OUT/records.tar.gz (refreshed after each record: a call cut short returns
# what finished), to be unpacked under perf/results/<record>/h200.
#   scripts/gpu_records.sh anchors backends
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
work=$root/.deps/records
logs=$work/logs
tools=$root/.deps/install/tools
mkdir -p "$out" "$logs"
log() { echo "gpu_records: $(date +%T) $*" >&2; }
pack() { tar -czf "$out/records.tar.gz" -C "$work" . ; }

build() {  # build PRESET: the driver alone, no tests
  KOLLECTIVE_GPU_PRESET=$1 KOLLECTIVE_GPU_TARGETS=kollective KOLLECTIVE_GPU_TESTS='^no tests$' OUT="$logs/$1" \
    "$root/scripts/gpu_run.sh" >"$logs/build_$1.log" 2>&1
}
log "building CUDA"
build cuda &
cuda=$!
while kill -0 $cuda 2>/dev/null && [ ! -f "$tools/.clp" ]; do sleep 2; done  # the tools both builds share
log "building OpenMP"
build openmp
wait $cuda
for preset in cuda openmp; do
  [ -x "$root/build/$preset/drivers/kollective" ] || { tail -n 30 "$logs/build_$preset.log"; log "$preset build FAILED"; pack; exit 1; }
done
log "built"

run() {  # run PRESET CONFIG FOLDER
  local preset=$1 config=$2 folder=$3
  log "$config on $preset"
  local threads=()
  [ "$preset" = openmp ] && threads=(env OMP_NUM_THREADS="$(nproc)" OMP_PROC_BIND=spread OMP_PLACES=threads)
  (cd "$root" && "${threads[@]}" "./build/$preset/drivers/kollective" run "$config" --out "$folder" --quiet) \
    >"$folder.log" 2>&1 || { tail -n 20 "$folder.log"; log "$config on $preset FAILED"; }
  rm -f "$folder"/*.csv "$folder"/*.json  # the database and the Markdown tables are the record
}
compare() {  # compare A B NAME: both folders' points side by side, into NAME.md and NAME.csv
  "$root/build/cuda/drivers/kollective" compare "$1" "$2" --csv "$work/$3.csv" >"$work/$3.md" 2>&1
  echo "kollective compare exit status $?" >>"$work/$3.md"
  cat "$work/$3.md"
}
for record in "$@"; do
  rm -rf "${work:?}/$record" && mkdir -p "$work/$record"
  case $record in
    anchors)
      run cuda configs/gpu_anchors.yaml "$work/anchors/cuda";;
    backends)
      run openmp configs/backend_anchors.yaml "$work/backends/openmp"
      run cuda configs/backend_anchors.yaml "$work/backends/cuda"
      compare "$work/backends/openmp" "$work/backends/cuda" backends/openmp_vs_cuda;;
    *) log "unknown record '$record' (anchors, backends)"; exit 2;;
  esac
  recorded=$root/perf/results/$record/h200
  if [ -f "$recorded/cuda/results.sqlite" ]; then compare "$recorded/cuda" "$work/$record/cuda" "$record/recorded_vs_new"; fi
  pack
done
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > "$work/gpu.txt"
pack
log "done: $out/records.tar.gz"
