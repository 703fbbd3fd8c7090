#!/usr/bin/env bash
# Issues #15 and #16's two-GPU measurements on a machine with two GPUs, in up to three device
# calls made back to back (the machine stays warm 30 s after a call and keeps build/):
#   scripts/gpu_scale_out.sh dp      builds cuda-mpi, runs the tests on 1 and 2 ranks, then
#                                    kemeny_scale_out and csg_scale_out on 1 and 2 ranks and the
#                                    largest Kemeny DP that two GPUs of this machine hold
#                                    (kemeny_scale_out_34 on H200s, _33 on H100s) on 2 (about 400 s)
#   scripts/gpu_scale_out.sh paths   schulze_scale_out and ranksvm_scale_out on 1 and 2 ranks
#   scripts/gpu_scale_out.sh sweep   csg_idpg2014 on 1 and 2 ranks (its wall time is the throughput)
# and the four-GPU ones on a machine with four (about 450 s, 350 s and 400 s):
#   scripts/gpu_scale_out.sh x4        builds cuda-mpi, runs the tests on 1 to 4 ranks, then
#                                      scale_out_x4 (Kemeny n = 35, CSG n = 32) on 4
#   scripts/gpu_scale_out.sh x4_paths  scale_out_x4_paths (Schulze n = 131072, RankSVM 22.7 M) on 4
#   scripts/gpu_scale_out.sh x4_33     scale_out_x4_33 (CSG n = 33) on 4
# Each call packs its tables and logs into $OUT/results_<phase>.tgz (the device tool returns only
# so many files). Prepare with scripts/gpu_prepare.sh and carry [".deps/src"].
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
phase=${1:-dp}
mkdir -p "$out"
work=$(mktemp -d)
export KOLLECTIVE_GPU_PRESET=cuda-mpi KOLLECTIVE_GPU_RANKS="1 2"
no_tests='^none$'
status=0
case $phase in
  dp)
    KOLLECTIVE_GPU_TESTS='^(cuda|comm_np[12]|distributed_np[12]|cli_distributed_np[12])$' OUT=$work/pairs \
      "$root/scripts/gpu_run.sh" "$root/configs/kemeny_scale_out.yaml" "$root/configs/csg_scale_out.yaml"
    status=$?
    # The largest n whose tables two of this machine's GPUs hold: 34 needs 116 GiB a rank.
    memory_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -n 1)
    largest=$root/configs/kemeny_scale_out_34.yaml
    [ "$memory_mib" -lt 120000 ] && largest=$root/configs/kemeny_scale_out_33.yaml
    KOLLECTIVE_GPU_RANKS=2 KOLLECTIVE_GPU_TESTS=$no_tests OUT=$work/largest "$root/scripts/gpu_run.sh" "$largest" | tail -n 4
    ;;
  paths)
    KOLLECTIVE_GPU_TESTS=$no_tests OUT=$work/paths \
      "$root/scripts/gpu_run.sh" "$root/configs/schulze_scale_out.yaml" "$root/configs/ranksvm_scale_out.yaml"
    status=$?
    ;;
  sweep)
    KOLLECTIVE_GPU_TESTS=$no_tests OUT=$work/sweep "$root/scripts/gpu_run.sh" "$root/configs/csg_idpg2014.yaml"
    status=$?
    ;;
  x4)
    KOLLECTIVE_GPU_RANKS=4 KOLLECTIVE_GPU_TESTS='^(cuda|comm_np[123]|distributed_np[1234]|cli_distributed_np[123])$' \
      OUT=$work/x4 "$root/scripts/gpu_run.sh" "$root/configs/scale_out_x4.yaml"
    status=$?
    ;;
  x4_paths|x4_33)
    KOLLECTIVE_GPU_RANKS=4 KOLLECTIVE_GPU_TESTS=$no_tests OUT=$work/$phase \
      "$root/scripts/gpu_run.sh" "$root/configs/scale_out_$phase.yaml"
    status=$?
    ;;
  *) echo "gpu_scale_out.sh: unknown phase '$phase' (dp, paths, sweep, x4, x4_paths or x4_33)" >&2; exit 2;;
esac
tar czf "$out/results_$phase.tgz" -C "$work" .
exit $status
