#!/usr/bin/env bash
# One-off device call (not part of the project): Kemeny n = 32 (and 33, 34): "ws" = main at 5259bb8,
# "event" = branch event-order (each trade queued on the GPU behind its step's kernels, each step
# behind the trade two steps back). Both built here (cuda-mpi, LP off) and carried.
set -u
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
p=$PWD/.deps/probe; w=/tmp/p; mkdir -p $w
mpilib=$(dirname "$(readlink -f "$(command -v mpirun)")")/../lib
export LD_LIBRARY_PATH=$p:$mpilib:${LD_LIBRARY_PATH:-}
if ! $p/kollective_ws --help > $w/help.log 2>&1; then
  export LD_LIBRARY_PATH=$p/cxx:$LD_LIBRARY_PATH
  $p/kollective_ws --help > $w/help.log 2>&1 || { tail -5 $w/help.log; exit 1; }
fi
config() {  # config N REPS
cat > /tmp/k$1.yaml <<Y
title: k
output: results/k
runs:
  - name: kemeny_dp_together
    algorithm: kemeny
    input:
      generator: {model: impartial_culture, alternatives: $1, voters: 100, seed: 1}
    options: {method: dp, list_limit: 20}
    distribute: solve
    warmup: 1
    repetitions: $2
    verify: false
    write: {rankings: false}
Y
}
config 32 5; config 33 3; config 34 1
run() {  # run NAME BINARY N NP [ENV=VALUE...]
  local name=$1 bin=$2 n=$3 np=$4; shift 4
  local xs=""; for kv in "$@"; do export "$kv"; xs="$xs -x ${kv%%=*}"; done
  timeout -s KILL 120 mpirun --allow-run-as-root -np $np -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH $xs --bind-to none $p/$bin run /tmp/k$n.yaml --out $w/$name > $w/$name.log 2>&1
  for kv in "$@"; do unset "${kv%%=*}"; done
  python3 - $w/$name/kemeny_dp_together.csv $name $w/$name.log <<'P' | tee -a $w/summary.txt
import csv,sys,re,statistics as st
try:
  for r in csv.DictReader(open(sys.argv[1])):
    print(f"{sys.argv[2]:>14} n={r['alternatives']} ranks={r.get('dp_ranks','1')} seconds={float(r['seconds']):.4f} min={float(r['seconds_min']):.4f} layers={float(r['dp_layers_seconds']):.4f} waited=[{float(r.get('exchange_seconds_min') or 0):.4f},{float(r.get('exchange_seconds_max') or 0):.4f}] d={r['distance']} optima={r['optimal_rankings']}")
except Exception as e: print(sys.argv[2], 'no table', e)
rows={}
for line in open(sys.argv[3]):
  m=re.match(r'PROBE rank (\d+) n=\d+ (.*?) steps',line)
  if not m: continue
  d=dict(kv.split('=') for kv in m.group(2).split())
  rows.setdefault(m.group(1),[]).append({k:float(v) for k,v in d.items()})
for rk,v in sorted(rows.items()):
  v=v[1:] or v
  print(f"{'':>14}   rank {rk}: "+" ".join(f"{k}={st.median(x[k] for x in v):.1f}" for k in v[0]))
P
}
run ws_one32 kollective_ws 32 1
run event_one32 kollective_event 32 1
for i in a b c; do
  run ws_two32_$i kollective_ws 32 2
  run event_two32_$i kollective_event 32 2
done
run event_one32_b kollective_event 32 1
run ws_one32_b kollective_ws 32 1
if nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1 | awk '{exit !($1 > 120000)}'; then
  run ws_one33 kollective_ws 33 1
  run event_one33 kollective_event 33 1
  run ws_two33 kollective_ws 33 2
  run event_two33 kollective_event 33 2
  run event_two34 kollective_event 34 2
fi
tar czf $OUT/probe.tgz -C /tmp p
echo; cat $w/summary.txt
