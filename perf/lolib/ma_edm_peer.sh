#!/usr/bin/env bash
# The strongest published heuristic for the large LOP sets run beside ours: MA-EDM (Lugo, Segura
# and Miranda, Memetic Computing 2022; its source in the repository carlossegurag/LOP_MA-EDM,
# folder src/), built here with its own Makefile and run on the same files for the same time.
#
#   perf/lolib/ma_edm_peer.sh MA_EDM_SRC FOLDER OUT.csv NAME...
#
# MA_EDM_SRC: a copy of that src/ folder (it is built in a temporary copy); FOLDER holds the
# instance files NAME... (LOLIB's format, as mrpritt/lop-instances has them; RandA1's damaged
# entries zeroed as in perf/results/kemeny/cpu_anytime/). Environment: POPULATIONS (default
# "10 20"), SECONDS_LIMIT (60), SEED (1), JOBS (2: runs at a time, one core each).
# OUT.csv: instance,n,population,seconds,seed,lop_value,best_known,below_best_known_pct, one row
# per instance and population; best_known from perf/lolib/best_known.csv (empty where not listed).
# MA-EDM's schedule reads the clock, so a run with the same seed may end elsewhere.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
src=$1 folder=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
populations=${POPULATIONS:-10 20}
seconds=${SECONDS_LIMIT:-60}
seed=${SEED:-1}
jobs=${JOBS:-2}
for name in "$@"; do
  [ -f "$folder/$name" ] || { echo "ma_edm_peer.sh: no instance file $folder/$name" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/src"
rm -f "$work"/src/*.o "$work/src/main"
make -C "$work/src" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
for name in "$@"; do
  for population in $populations; do echo "$name $population"; done
done | W=$work S=$seconds R=$seed F=$folder xargs -P "$jobs" -n 2 \
  sh -c '"$W/src/main" "$2" cx "$S" "$R" "$F/$1" "$W/$1.$2.out" >/dev/null 2>&1' _ || true
python3 - "$here/best_known.csv" "$folder" "$work" "$seconds" "$seed" "$populations" "$@" >"$out" <<'EOF'
import csv, os, sys
best_csv, folder, work, seconds, seed, populations = sys.argv[1:7]
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout by the import below
sys.path.insert(0, os.path.dirname(best_csv))
from check_lolib import parse_lolib  # noqa: E402  (this folder)
best = {row["instance"]: int(row["best_known"]) for row in csv.DictReader(open(best_csv))}
writer = csv.writer(sys.stdout, lineterminator="\n")
writer.writerow(["instance", "n", "population", "seconds", "seed", "lop_value", "best_known", "below_best_known_pct"])
missing = []
for name in sys.argv[7:]:
    n = parse_lolib(os.path.join(folder, name))[0]
    for population in populations.split():
        path = os.path.join(work, f"{name}.{population}.out")
        lines = open(path).readlines() if os.path.exists(path) else []
        value = next((int(line.split()[1]) for line in lines if line.startswith("Cost:")), None)
        if value is None:
            missing.append(f"{name} (population {population})")
            continue
        known = best.get(name)
        below = f"{100 * (known - value) / known:.3f}" if known else ""
        writer.writerow([name, n, population, seconds, seed, value, known if known else "", below])
if missing:
    sys.exit("ma_edm_peer.sh: no answer from MA-EDM for " + ", ".join(missing))
EOF
