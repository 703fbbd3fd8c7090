#!/usr/bin/env bash
# Runs on the GPU machine once two trees are built there (scripts/gpu_run.sh in each): runs CONFIG
# with the `kollective` of BEFORE_DIR and of this tree, alternately, ROUNDS times each, and prints
# one line per result row: the before and after times and answers side by side.
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
mkdir -p "$out" && tar -czf "$out/compare.tar.gz" -C "$work" .

python3 - "$work" "$rounds" <<'PY'
import csv, glob, os, sys
work, rounds = sys.argv[1], int(sys.argv[2])
# The time and the answer of each kind of row, by the columns it has.
# A before tree may be older than solve_s (the driver wrote `seconds` before 2026-11-27).
kinds = [("tera_updates_per_s", "paths_s", "winners"), ("splits_per_s", "solve_s", "optimum"),
         ("cg_steps", "solve_s", "objective"), ("distance", "solve_s", "distance")]
def rows(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        if any(path.endswith(s) for s in ("_ranking.csv", "_rankings.csv", "_paths.csv", "_pairwise.csv", "_beats.csv")):
            continue
        for r in csv.DictReader(open(path, newline="")):
            yield r
def key(r):
    size = next((r[c] for c in ("alternatives", "agents", "documents") if c in r and r[c]), "")
    return (r["run"], size)
table = {}
for side in ("before", "after"):
    for k in range(1, rounds + 1):
        for r in rows(os.path.join(work, f"{side}{k}")):
            kind = next(kd for kd in kinds if kd[0] in r)
            entry = table.setdefault(key(r), {"before": [], "after": [], "answer": {}})
            entry[side].append(float(r[kind[1]] if kind[1] in r else r["seconds"]))
            entry["answer"].setdefault(side, r[kind[2]])
print(f"{'run':<24} {'size':>8} {'before s':>22} {'after s':>22} {'after/before':>12}  same answer")
for (run, size), e in table.items():
    b, a = e["before"], e["after"]
    fmt = lambda xs: ", ".join(f"{x:.4g}" for x in xs)
    ratio = (min(a) / min(b)) if a and b and min(b) > 0 else float("nan")
    same = e["answer"].get("before") == e["answer"].get("after")
    print(f"{run:<24} {size:>8} {fmt(b):>22} {fmt(a):>22} {ratio:>12.3f}  {same}")
PY
rm -rf "$work"
