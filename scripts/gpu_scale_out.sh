#!/usr/bin/env bash
# Issue #15's two-GPU measurements in one device call on nvidia-h200-x2 (about 330 s from a fresh
# machine): builds the cuda-mpi preset, runs the tests on 1 and 2 ranks, then
#   configs/kemeny_scale_out.yaml and configs/csg_scale_out.yaml on 1 and 2 ranks,
#   configs/kemeny_scale_out_34.yaml on 2 ranks,
# and packs every table and log into $OUT/results.tgz (the device tool returns only so many
# files). Prepare with scripts/gpu_prepare.sh, carry [".deps/src"], and run
#   scripts/gpu_scale_out.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
work=$(mktemp -d)
export KOLLECTIVE_GPU_PRESET=cuda-mpi
KOLLECTIVE_GPU_RANKS="1 2" KOLLECTIVE_GPU_TESTS='^(cuda|comm_np[12]|distributed_np[12]|cli_distributed_np[12])$' \
  OUT=$work/pairs "$root/scripts/gpu_run.sh" "$root/configs/kemeny_scale_out.yaml" "$root/configs/csg_scale_out.yaml"
status=$?
KOLLECTIVE_GPU_RANKS=2 KOLLECTIVE_GPU_TESTS='^none$' OUT=$work/two "$root/scripts/gpu_run.sh" \
  "$root/configs/kemeny_scale_out_34.yaml" | tail -n 4
tar czf "$out/results.tgz" -C "$work" .
exit $status
