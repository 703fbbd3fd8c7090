#!/usr/bin/env bash
# Profiler evidence for the Schulze kernels on the GPU machine, after scripts/gpu_run.sh built
# build/cuda: an instruction histogram of each kernel's SASS and Nsight Compute sections for a
# few launches of each kernel at n = ${N:-8192}. Writes to $OUT (or ./gpu-out).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
n=${N:-8192}
bits=${BITS:-32}
exe=$root/build/cuda/drivers/kollective
mkdir -p "$out"

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
for kernel in DiagonalTile TileUpdates; do
  ncu --clock-control none --kernel-name-base demangled -k "regex:$kernel" --launch-skip 8 --launch-count 2 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
      "$exe" run "$out/profile.yaml" --out "$out/profile" --quiet > "$out/ncu_$kernel.txt" 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Shared Memory Configuration Size|Dynamic Shared|Block Size|Issue Slots Busy|Executed Ipc Active|Stall|No Eligible" "$out/ncu_$kernel.txt" | head -40
done
