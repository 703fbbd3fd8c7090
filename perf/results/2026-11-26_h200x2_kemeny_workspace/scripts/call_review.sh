#!/usr/bin/env bash
# Device call: main (REVISION) built with cuda-mpi; the multi-rank tests on GPUs; the Kemeny
# scale-out config on 1 and 2 ranks.
set -u
real=$OUT; export OUT=/tmp/out; mkdir -p $OUT
KOLLECTIVE_GPU_PRESET=cuda-mpi KOLLECTIVE_GPU_RANKS="1 2" \
  KOLLECTIVE_GPU_TESTS='^(cuda|comm_np[12]|distributed_np[12]|cli_distributed_np[12])$' \
  timeout -s KILL 470 scripts/gpu_run.sh configs/kemeny_scale_out.yaml 2>&1 | tail -16
tar czf $real/review.tgz -C /tmp out
