#!/usr/bin/env bash
# Profiler evidence on the GPU machine, after scripts/gpu_run.sh built build/cuda: Nsight Compute
# sections for a few launches of each hot kernel of one problem. Writes to $OUT (or ./gpu-out).
#   scripts/gpu_profile.sh schulze    SASS instruction histogram and the tile kernels at n = ${N:-8192}
#                                     (BITS=16 for the 16-bit path)
#   scripts/gpu_profile.sh ranksvm    the RankSVM kernels on the MSLR-sized set (${PRECISION:-float} X)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
exe=$root/build/cuda/drivers/kollective
problem=${1:-schulze}
mkdir -p "$out"

profile_kernels() {  # profile_kernels SKIP KERNEL_REGEX...: ncu of 2 launches of each, after SKIP
  local skip=$1; shift
  for kernel in "$@"; do
    ncu --clock-control none --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" --launch-count 2 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        "$exe" run "$out/profile.yaml" --out "$out/profile" --quiet > "$out/ncu_$kernel.txt" 2>&1
    echo "== $kernel"
    grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Dynamic Shared|Block Size|Grid Size|Executed Ipc Active|Stall|No Eligible" "$out/ncu_$kernel.txt" | head -30
  done
}

case $problem in
schulze)
  n=${N:-8192}
  bits=${BITS:-32}
  cuobjdump --dump-sass "$exe" > "$out/sass.txt" 2>/dev/null
  python3 - "$out/sass.txt" <<'PY' | tee "$out/sass_histogram.txt"
import re, sys, collections
kernels, current = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"\s+Function : (\S+)", line)
    if m:
        current = m.group(1); kernels[current] = collections.Counter(); continue
    m = re.match(r"\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)", line)
    if m and current:
        kernels[current][m.group(1).split('.')[0]] += 1
for name, counts in kernels.items():
    if "TileUpdates" in name or "DiagonalTile" in name:
        print(name[:90]); print('   ', ', '.join(f"{k}:{v}" for k, v in counts.most_common(14)))
PY
  cat > "$out/profile.yaml" <<YAML
runs:
  - name: profile
    algorithm: schulze
    input:
      generator: {model: random_pairwise, alternatives: $n, voters: $([ "$bits" = 16 ] && echo 30000 || echo 1000000), seed: 1}
    options: {strength_bits: "$bits"}
    verify: false
    write: {ranking: false}
YAML
  profile_kernels 8 DiagonalTile TileUpdates
  ;;
ranksvm)
  cat > "$out/profile.yaml" <<YAML
runs:
  - name: profile
    algorithm: ranksvm
    input:
      train: {generator: {shape: mslr, seed: 1}}
    options: {C: 1, eps: 1.0e-5, max_iterations: 3, log: false, precision: ${PRECISION:-float}}
YAML
  profile_kernels 4 set_sums transpose_times        # run per Hessian product
  profile_kernels 1 sort_queries find_ranges GEMV    # run per function evaluation (a few in 3 iterations)
  ;;
*) echo "usage: scripts/gpu_profile.sh schulze|ranksvm" >&2; exit 2 ;;
esac
