#!/usr/bin/env bash
# Issue #36 on the GPU machine: builds the CUDA driver (scripts/gpu_run.sh, driver only), then
# proves LOLIB's instances with published optima and random tournaments, every solve on one host
# thread, several solves side by side on the machine's cores, and prints a short table last.
#   perf/gpu_lop.sh build                 builds (about 5 minutes on a fresh machine)
#   perf/gpu_lop.sh LOLIB_DIR [SECONDS]   measures, with the build of the call before (LOLIB_DIR: the
#                                         IO originals under mat/, Optsicom's normal forms and SGB
#                                         under n/; SECONDS per random tournament, default 480)
# The device tool limits a call to 10 minutes, hence two calls on one warm machine.
# Prepare with scripts/gpu_prepare.sh and carry .deps/src and LOLIB_DIR (the instances have no
# licence to redistribute: keep them git-ignored, e.g. listed in .git/info/exclude).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lolib=$1
limit=${2:-480}
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
driver=$root/build/cuda/drivers/kollective
if [ "$lolib" = build ]; then
  KOLLECTIVE_GPU_TARGETS=kollective KOLLECTIVE_GPU_TESTS=no-test-matches "$root/scripts/gpu_run.sh" > "$out/build.txt" 2>&1
  status=$?
  tail -n 5 "$out/build.txt"; ls -la "$driver"; nproc; exit $status
fi
[ -x "$driver" ] || { echo "gpu_lop: no $driver: run perf/gpu_lop.sh build first" >&2; exit 1; }
export OMP_NUM_THREADS=1
work=$root/gpu-lop
rm -rf "$work" && mkdir -p "$work"
start=$(date +%s)
python3 "$root/perf/lolib/check_lolib.py" --instances "$lolib/mat" --kollective "$driver" --out "$work/io_original" \
  --no-count --certificates > "$work/io_original.txt" 2>&1 &
python3 "$root/perf/lolib/check_lolib.py" --instances "$lolib/n" --kollective "$driver" --out "$work/io_normal" \
  --no-count --certificates --only $(grep "^io,N-" "$root/perf/lolib/optima.csv" | cut -d, -f2) > "$work/io_normal.txt" 2>&1 &
for sgb in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
  [ -f "$lolib/n/N-sgb75.$sgb" ] || continue
  grep -q "sgb75.$sgb" "$root/perf/lolib/optima.csv" || continue
  python3 "$root/perf/lolib/check_lolib.py" --instances "$lolib/n" --kollective "$driver" --out "$work/sgb$sgb" \
    --no-count --certificates --only "N-sgb75.$sgb" > "$work/sgb$sgb.txt" 2>&1 &
done
for n in 40 41 42 43 44 45; do
  python3 "$root/perf/lop_peers.py" --out "$work/random_$n" --random-tournament "$n" 1 --solvers kollective \
    --time-limit "$limit" --kollective "$driver" --kollective-option count=false > "$work/random_$n.txt" 2>&1 &
done
wait
echo "all solves: $(( $(date +%s) - start )) s wall"
tar -czf "$out/gpu_lop.tar.gz" -C "$work" .
grep -h -E "^(OK|UNPROVEN|MISMATCH|ERROR)|[0-9]+ of [0-9]+|instances" "$work"/io_*.txt "$work"/sgb*.txt | tail -n 40
grep -h "random_n" "$work"/random_*/lop_peers.csv 2>/dev/null || cat "$work"/random_*.txt | tail -n 20
