#!/usr/bin/env bash
# One-off device call (not part of the project): Kemeny n = 32 (main's binary, built here, cuda-mpi,
# LP off) on one rank and on two, with NCCL's p2p channels (one CTA each) limited in various ways.
set -u
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
p=$PWD/.deps/probe; w=/tmp/p; mkdir -p $w
mpilib=$(dirname "$(readlink -f "$(command -v mpirun)")")/../lib
export LD_LIBRARY_PATH=$p:$mpilib:${LD_LIBRARY_PATH:-}
b=$p/kollective_head
if ! $b --help > $w/help.log 2>&1; then
  echo "with the system's libstdc++: $(tail -2 $w/help.log)"; export LD_LIBRARY_PATH=$p/cxx:$LD_LIBRARY_PATH
  $b --help > $w/help.log 2>&1 || { tail -5 $w/help.log; exit 1; }
fi
cat > /tmp/k32.yaml <<Y
title: k
output: results/k
runs:
  - name: kemeny_dp_together
    algorithm: kemeny
    input:
      generator: {model: impartial_culture, alternatives: 32, voters: 100, seed: 1}
    options: {method: dp, list_limit: 20}
    distribute: solve
    warmup: 1
    repetitions: 5
    verify: false
    write: {rankings: false}
Y
run() {  # run NAME NP [ENV=VALUE...]
  local name=$1 np=$2; shift 2
  local xs=""; for kv in "$@"; do export "$kv"; xs="$xs -x ${kv%%=*}"; done
  timeout -s KILL 60 mpirun --allow-run-as-root -np $np -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH $xs --bind-to none $b run /tmp/k32.yaml --out $w/$name > $w/$name.log 2>&1
  for kv in "$@"; do unset "${kv%%=*}"; done
  python3 - $w/$name/kemeny_dp_together.csv $name <<'P' | tee -a $w/summary.txt
import csv,sys
try:
  for r in csv.DictReader(open(sys.argv[1])):
    print(f"{sys.argv[2]:>14} ranks={r.get('dp_ranks','1')} seconds={float(r['seconds']):.4f} min={float(r['seconds_min']):.4f} layers={float(r['dp_layers_seconds']):.4f} waited=[{float(r.get('exchange_seconds_min') or 0):.4f},{float(r.get('exchange_seconds_max') or 0):.4f}] d={r['distance']} optima={r['optimal_rankings']}")
except Exception as e: print(sys.argv[2], 'no table', e)
P
}
run one_a 1
run two_default 2
for c in 1 2 4 8 16; do run two_p2p$c 2 NCCL_MAX_P2P_NCHANNELS=$c; done
run two_ctas4 2 NCCL_MAX_CTAS=4
run two_p2p4_t256 2 NCCL_MAX_P2P_NCHANNELS=4 NCCL_NTHREADS=256
run two_default_b 2
run one_b 1
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P timeout 60 mpirun --allow-run-as-root -np 2 -x NCCL_DEBUG -x NCCL_DEBUG_SUBSYS -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH --bind-to none $b run /tmp/k32.yaml --out $w/dbg > $w/nccl_debug.log 2>&1
grep -i "channel\|nthreads\|p2p" $w/nccl_debug.log | head -20
tar czf $OUT/probe.tgz -C /tmp p
echo; cat $w/summary.txt
