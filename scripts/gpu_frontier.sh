#!/usr/bin/env bash
# The coalition frontier of issue #53 on a machine with two GPUs (device kind nvidia-h200-x2), in
# three device calls of under ten minutes each; the machine stays warm between calls, and with it
# the build and the work folder (build/frontier). Prepare here first (scripts/gpu_prepare.sh,
# perf/odpip/bundle.sh) and carry .deps/src.
#   scripts/gpu_frontier.sh 0  builds (cuda-mpi preset) and runs the CUDA coalition tests
#   scripts/gpu_frontier.sh 1  0, then GPU 0: IDP alone at n = 28; GPU 1: auto at n = 28, then IDP alone at n = 30
#   scripts/gpu_frontier.sh 2  GPU 0: auto at n = 30; GPU 1: ODP-IP side by side at n = 24-27
#                              (ODP-IP on cores 4-31, one instance per core), then IDP alone at n = 30 resumed
#   scripts/gpu_frontier.sh 3  GPU 0 and 1: auto at n = 32 (the distributions IP ends at n = 28),
#                              then n = 32 on both GPUs (two ranks), then n = 33 on one
#   scripts/gpu_frontier.sh 4  n = 32 on both GPUs, resumed (the four IP does not end: about 6
#                              minutes each, one a call; build first with 7 on a fresh machine;
#                              resume_flag=--force-resume resumes a database of another revision)
#   scripts/gpu_frontier.sh 5  0, then GPU 0: IDP alone at n = 30 resumed (carry build/frontier with
#                              the record's database in csg_frontier_idp_30/); GPU 1: ODP-IP side by
#                              side on Zipf (n = 24, 25) and Pascal (n = 24) again, with options.ip_min_s
#   scripts/gpu_frontier.sh 6  builds the driver alone (about 4 min, no tests), then 4 in the same
#                              call (too short for an n = 32 point of about 385 s: use 7, then 4)
#   scripts/gpu_frontier.sh 7  builds the driver alone, nothing else
#   scripts/gpu_frontier.sh 8  builds the driver, then GPU 1: Pascal at n = 28-32 (its values by
#                              inversion), then the eleven other distributions IP ends, at n = 33
#   scripts/gpu_frontier.sh 9  GPU 0: F at n = 33 (about 8 minutes: a call of its own, with
#                              KOLLECTIVE_FRONTIER_DEADLINE=590); GPU 1: 8's runs resumed
#   scripts/gpu_frontier.sh 10 builds the driver, then starts n = 33 on both GPUs in a process of its
#                              own (setsid: it outlives the call while the machine stays warm), for
#                              at most KOLLECTIVE_FRONTIER_BACKGROUND seconds (default 1500); IDP
#                              takes about 1100 s a point there, longer than a call. It resumes from
#                              the record's database (perf/results/coalition/h200_frontier/33_two_gpus)
#                              where the work folder has none: carry .deps/src alone
#   scripts/gpu_frontier.sh 11 waits for 10's run until its next point ends (then stops it) or the
#                              call's deadline (chain such calls within the machine's 30 s idle
#                              release), then packs. Never carry build/frontier to these calls: a
#                              carried folder replaces the one the background run writes to
#   scripts/gpu_frontier.sh 12 builds the driver, then runs n = 32 on both GPUs in the background as
#                              10 does (the four IDP ends, about 5-6 minutes each), builds the CUDA
#                              tests beside it (nice, cores 8-31) and runs the coalition tests once
#                              the four points are in; wait with 13
#   scripts/gpu_frontier.sh 13 waits for the background run (10 or 12) to end or the call's deadline,
#                              stopping nothing, then packs
# Each lane's runs get SIGTERM at the call's deadline (KOLLECTIVE_FRONTIER_DEADLINE seconds, default
# 550): finished points are kept, and a later call's --resume runs the rest. Every call packs the
# work folder's databases and tables into $OUT/frontier.tar.gz and prints a table last.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
work=$root/build/frontier
deadline=${KOLLECTIVE_FRONTIER_DEADLINE:-550}
mkdir -p "$out" "$work/logs"
log() { echo "gpu_frontier: $(date +%T) +${SECONDS}s $*" >&2; }
driver=$root/build/cuda-mpi/drivers/kollective
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

left() { echo $((deadline - SECONDS > 1 ? deadline - SECONDS : 1)); }
run() {  # run GPU CPUS CONFIG: one config on one GPU, resumed where an earlier call left it
  local gpu=$1 cpus=$2 config=$3 name
  name=$(basename "$config" .yaml)
  local resume=()
  [ -f "$work/$name/results.sqlite" ] && resume=("${resume_flag:---resume}")
  log "$name on GPU $gpu ${resume[*]}"
  (cd "$root" && CUDA_VISIBLE_DEVICES=$gpu timeout -s TERM -k 20 "$(left)" taskset -c "$cpus" \
    "$driver" run "$config" --out "$work/$name" --quiet "${resume[@]}") >>"$work/logs/$name.log" 2>&1
  log "$name ended: exit status $? ($(tail -n 1 "$work/logs/$name.log"))"
}
two_gpus() {  # two_gpus CONFIG: each run shared by two ranks, one GPU each; resumed as run's are
  local config=$1 name
  name=$(basename "$config" .yaml)
  local resume=()
  [ -f "$work/$name/results.sqlite" ] && resume=("${resume_flag:---resume}")
  log "$name on GPUs 0 and 1 ${resume[*]}"
  (cd "$root" && timeout -s TERM -k 20 "$(left)" mpirun --allow-run-as-root -np 2 -x NCCL_NVLS_ENABLE --bind-to none \
    "$driver" run "$config" --out "$work/$name" --quiet "${resume[@]}") >>"$work/logs/$name.log" 2>&1
  log "$name ended: exit status $?"
}
side_by_side() {  # side_by_side CSV SELECTION...: ODP-IP on cores 4-31 beside auto on GPU 1
  local csv=$1; shift
  log "ODP-IP side by side: $*"
  CUDA_VISIBLE_DEVICES=1 KOLLECTIVE=$driver KOLLECTIVE_CPUS=2,3 ODPIP_SIDE_DIR=$root/build/odpip/side \
    "$root/perf/odpip/side_by_side.sh" "$@" --methods auto --timeout 100 --cores 4-31 \
    --budget "$(left)" --csv "$work/$csv.csv" >"$work/logs/$csv.log" 2>&1
  log "side by side ended: exit status $?"
}
pack() {  # each database whole in its file (a killed run leaves its last points in the -wal)
  python3 -c 'import glob, sqlite3, sys
for db in glob.glob(sys.argv[1] + "/*/results.sqlite"): sqlite3.connect(db).execute("pragma wal_checkpoint(TRUNCATE)")' "$work"
  tar -czf "$out/frontier.tar.gz" -C "$work" --exclude='*.kcsg' --exclude='*_values.txt' .
}

# The background run's config (10: n = 33, 12: n = 32), kept for the waiting calls.
background_config=$(cat "$work/background.config" 2>/dev/null || echo configs/csg_frontier_33_two_gpus.yaml)
background_db=$work/$(basename "$background_config" .yaml)/results.sqlite
points() {  # points DATABASE: the finished points it holds (0 when there is none)
  python3 -c 'import os, sqlite3, sys
db = sys.argv[1]
print(sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute("select count(*) from rows").fetchone()[0] if os.path.exists(db) else 0)' "$1" 2>/dev/null || echo 0
}

build() {  # build TARGETS TESTS: the cuda-mpi preset's TARGETS, then the tests TESTS matches (none: no tests)
  log "building $1"
  KOLLECTIVE_GPU_PRESET=cuda-mpi KOLLECTIVE_GPU_TARGETS="$1" KOLLECTIVE_GPU_TESTS="$2" OUT=$work/build \
    "$root/scripts/gpu_run.sh" >"$work/logs/build.log" 2>&1
  log "built: exit status $? ($(grep -E 'tests passed|tests failed|no tests run' "$work/build/tests.log" 2>/dev/null))"
  [ -x "$driver" ] || { tail -n 30 "$work/logs/build.log"; pack; exit 1; }
}
build_and_test() { build "kollective kollective_tests_cuda" cuda_coalition; }

case ${1:-} in
  0)
    build_and_test;;
  1)
    build_and_test
    run 0 0,1 configs/csg_frontier_idp_28.yaml &
    (run 1 2,3 configs/csg_frontier_auto_28.yaml; run 1 2,3 configs/csg_frontier_idp_30.yaml) &
    wait;;
  2)
    run 0 0,1 configs/csg_frontier_auto_30.yaml &
    (side_by_side odpip_side_by_side --n "24 25 26 27"; run 1 2,3 configs/csg_frontier_idp_30.yaml) &
    wait;;
  3)
    run 0 0,1 configs/csg_frontier_auto_32_a.yaml &
    run 1 2,3 configs/csg_frontier_auto_32_b.yaml &
    wait
    two_gpus configs/csg_frontier_32_two_gpus.yaml
    run 0 0-15 configs/csg_frontier_33.yaml;;
  4)
    two_gpus configs/csg_frontier_32_two_gpus.yaml;;
  5)
    build_and_test
    resume_flag=--force-resume run 0 0,1 configs/csg_frontier_idp_30.yaml &  # the record's revision
    side_by_side odpip_recheck --instances "zipf:24 zipf:25 pascal:24" &
    wait;;
  6)
    build kollective none
    two_gpus configs/csg_frontier_32_two_gpus.yaml;;
  7)
    build kollective none;;
  10|12)
    build kollective none
    if [ "$1" = 10 ]; then
      background_config=configs/csg_frontier_33_two_gpus.yaml
      record=$root/perf/results/coalition/h200_frontier/33_two_gpus/results.sqlite
    else
      background_config=configs/csg_frontier_32_two_gpus.yaml record=
    fi
    echo "$background_config" > "$work/background.config"
    background_db=$work/$(basename "$background_config" .yaml)/results.sqlite
    if [ ! -f "$background_db" ] && [ -n "$record" ] && [ -f "$record" ]; then
      mkdir -p "$(dirname "$background_db")" && cp "$record" "$background_db"
      export resume_flag=--force-resume  # the record's points were made by earlier revisions
    fi
    rm -f "$work/background.done"
    points "$background_db" > "$work/background.points"
    setsid "$0" background "$1" </dev/null >>"$work/logs/background.log" 2>&1 &
    echo $! > "$work/background.pid"  # setsid's process leads its own session
    log "$background_config on two GPUs started in the background";;
  background)  # 10's or 12's process: one run of up to KOLLECTIVE_FRONTIER_BACKGROUND seconds
    SECONDS=0 deadline=${KOLLECTIVE_FRONTIER_BACKGROUND:-1500}
    two_gpus "$background_config" &
    if [ "${2:-}" = 12 ]; then  # the tests build on the cores the ranks' host threads leave, then run
      nice -n 19 taskset -c 8-$(($(nproc) - 1)) \
        env KOLLECTIVE_GPU_PRESET=cuda-mpi KOLLECTIVE_GPU_TARGETS=kollective_tests_cuda KOLLECTIVE_GPU_TESTS=none \
        OUT=$work/tests_build "$root/scripts/gpu_run.sh" >"$work/logs/tests_build.log" 2>&1
      log "tests built: exit status $?"
      wait
      (cd "$root/build/cuda-mpi" && ctest -j 2 --timeout 600 --output-on-failure -R cuda_coalition) >"$work/logs/tests.log" 2>&1
      log "coalition tests: exit status $? ($(grep -E 'tests passed|tests failed' "$work/logs/tests.log"))"
    fi
    wait
    touch "$work/background.done"
    exit 0;;
  13)
    [ -f "$work/background.config" ] || { log "no background run here: was build/frontier carried?"; exit 1; }
    while [ ! -f "$work/background.done" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 5; done
    log "background run $([ -f "$work/background.done" ] && echo ended || echo 'still running')";;
  11)  # once the next point ends, the run stops there: no device time on a point the session cannot end
    [ -f "$work/background.points" ] || { log "no background run here: was build/frontier carried after 10?"; exit 1; }
    point_ended() { [ "$(points "$background_db")" -gt "$(cat "$work/background.points")" ]; }
    while [ ! -f "$work/background.done" ] && [ "$SECONDS" -lt "$deadline" ] && ! point_ended; do sleep 5; done
    if [ ! -f "$work/background.done" ] && point_ended; then
      # The driver would finish the point in flight first; it has just begun, and finished points
      # are committed already.
      pkill -KILL -s "$(cat "$work/background.pid")" && touch "$work/background.done"
    fi
    log "background run $([ -f "$work/background.done" ] && echo ended || echo 'still running')";;
  8|9)
    [ "$1" = 8 ] && build kollective none
    [ "$1" = 9 ] && run 0 0-15 configs/csg_frontier_33_a.yaml &
    (run 1 16-31 configs/csg_frontier_pascal.yaml; run 1 16-31 configs/csg_frontier_33_b.yaml) &
    wait;;
  *) sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader > "$work/gpu.txt"
pack
python3 - "$work" <<'PY'
import glob, json, os, sqlite3, sys
print(f"{'folder':<26} {'run':<17} {'n':>2} {'method':<6} {'exact':<5} {'input_s':>8} {'solve_s':>9} {'wall_s':>9} {'ip_s':>7} {'nodes':>9} optimum")
for db in sorted(glob.glob(os.path.join(sys.argv[1], "*", "results.sqlite"))):
    folder = os.path.basename(os.path.dirname(db))
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        for (cells,) in con.execute("select cells from rows order by rowid"):
            r = json.loads(cells)
            print(f"{folder:<26} {r['run']:<17} {r['agents']:>2} {r['method']:<6} {str(r['exact']):<5} {r['input_s']:8.3f} "
                  f"{r['solve_s']:9.3f} {r['wall_s']:9.3f} {r.get('ip_s', 0):7.3f} {r.get('nodes', 0):9.3g} {r['optimum']:.0f}")
PY
for csv in odpip_side_by_side odpip_recheck; do
  [ -f "$work/$csv.csv" ] && tail -n 80 "$work/logs/$csv.log" | grep -v '^==' | tail -n 75
done
exit 0
