#!/usr/bin/env bash
# Device call: main's code (REVISION) built with cuda-mpi; the multi-rank tests on GPUs; the Kemeny
# scale-out config on 1 and 2 ranks; then n = 33 (1 and 2 ranks) and n = 34 (2 ranks).
set -u
real=$OUT; export OUT=/tmp/out; mkdir -p $OUT
KOLLECTIVE_GPU_PRESET=cuda-mpi KOLLECTIVE_GPU_RANKS="1 2" \
  KOLLECTIVE_GPU_TESTS='^(cuda|comm_np[12]|distributed_np[12]|cli_distributed_np[12])$' \
  timeout -s KILL 470 scripts/gpu_run.sh configs/kemeny_scale_out.yaml 2>&1 | tail -30
b=build/cuda-mpi/drivers/kollective
for n in 33 34; do
  reps=3; [ $n = 34 ] && reps=1
  sed -e "s/alternatives: 32,/alternatives: $n,/" -e "/sweep:/d" -e "s/repetitions: 5/repetitions: $reps/" configs/kemeny_scale_out.yaml > /tmp/k$n.yaml
  [ $n = 34 ] && sed -i '/- name: kemeny_dp_alone/,$d' /tmp/k$n.yaml  # one rank's share would not fit
  for np in 1 2; do
    [ $n = 34 ] && [ $np = 1 ] && continue
    timeout -s KILL 60 mpirun --allow-run-as-root -np $np -x NCCL_NVLS_ENABLE --bind-to none $b run /tmp/k$n.yaml --out $OUT/n${n}_np$np > $OUT/n${n}_np$np.log 2>&1
    python3 -c "
import csv,glob
for f in sorted(glob.glob('$OUT/n${n}_np$np/*.csv')):
  for r in csv.DictReader(open(f)):
    if 'seconds' in r: print('n=$n np=$np', f.split('/')[-1], 'ranks', r.get('dp_ranks',''), 'seconds', r['seconds'], 'layers', r.get('dp_layers_seconds',''), 'distance', r['distance'], 'optima', r.get('optimal_rankings',''))
" | tee -a $OUT/extra.txt
  done
done
tar czf $real/final.tgz -C /tmp out
