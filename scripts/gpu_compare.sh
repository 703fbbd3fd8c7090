#!/usr/bin/env bash
# Runs on the GPU machine once two trees are built there (scripts/gpu_run.sh in each): runs CONFIG
# with the `kollective` of BEFORE_DIR and of this tree, alternately, ROUNDS times each, and prints
# `kollective compare` of each round's two outputs: every point's answers and time ratio.
#   scripts/gpu_compare.sh BEFORE_DIR CONFIG [ROUNDS]     (ROUNDS default 1)
# KOLLECTIVE_COMPARE_RANKS=R runs each under `mpirun -np R` with the build/cuda-mpi drivers.
# Tables go to $OUT/compare.tar.gz (the device tool returns at most 8 files) and ./gpu-out.
set -uo pipefail
before=$(cd "${1:?usage: gpu_compare.sh BEFORE_DIR CONFIG [ROUNDS]}" && pwd)
config=${2:?usage: gpu_compare.sh BEFORE_DIR CONFIG [ROUNDS]}
rounds=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
work=$(mktemp -d)
name=$(basename "$config" .yaml)
build=cuda launch=()
if [ -n "${KOLLECTIVE_COMPARE_RANKS:-}" ]; then
  build=cuda-mpi launch=(mpirun --allow-run-as-root -np "$KOLLECTIVE_COMPARE_RANKS" -x NCCL_NVLS_ENABLE --bind-to none)
  export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    tree=$root; [ $side = before ] && tree=$before
    echo "gpu_compare: round $round, $side ($tree)" >&2
    (cd "$root" && "${launch[@]}" "$tree/build/$build/drivers/kollective" run "$config" --quiet --out "$work/$side$round") \
      >"$work/$side$round.log" 2>&1 || { tail -n 20 "$work/$side$round.log"; echo "gpu_compare: $side FAILED" >&2; }
  done
done
# Point by point, each round's before against its after: answers, solve_s ratios and their noise.
# (A before tree older than the results database, issue #52, writes none to compare.)
for round in $(seq 1 "$rounds"); do
  echo "== round $round: before (A) against after (B)"
  "$root/build/$build/drivers/kollective" compare "$work/before$round" "$work/after$round" --csv "$work/compare$round.csv"
done
mkdir -p "$out" && tar -czf "$out/compare.tar.gz" -C "$work" .
rm -rf "$work"
