#!/usr/bin/env bash
# ODP-IP on the CPU cores of a GPU machine against Kollective on its GPU, the same instances in one
# call (issue #39). For each n and model: Kollective generates the instance, solves it with each
# of --methods in turn (the first run writes the values in the binary format; the others read
# that file) and then ODP-IP solves the file on a core of its own, in the background, while
# Kollective goes on with the next instance. ODP-IP runs as many instances at a time as --cores
# lists, one pinned to each core, as its authors' experiments ran one instance per core.
#
#   perf/odpip/side_by_side.sh [--models "uniform ..."] [--n "25 26"] [--seed 7] [--timeout 120]
#                              [--methods "auto idp"] [--cores 2-15] [--csv FILE]
#                              [--instances "normal:28 gamma:26 ..."]  (instead of models x n)
#                              [--budget SECONDS]
#
# --budget: the whole script's wall time (default none). No instance starts once less than a
# minute of it is left (Kollective's runs are not stopped), and each ODP-IP run's limit is cut to
# end inside it, so that the table is always written (a device call that runs past its limit
# brings nothing back); a cut limit is that row's timeout_s.
#
# Environment: KOLLECTIVE (the driver; default build/cuda/drivers/kollective), KOLLECTIVE_CPUS
# (taskset list for the driver; default 0,1), ODPIP_XMX (java -Xmx; default 4 arrays of 2^n doubles),
# ODPIP_SIDE_DIR (the work folder; default build/odpip/side).
# Java: the runtime and classes of .deps/src/odpip.tar.xz (bundle.sh) when it is there, else
# compile.sh and the java on PATH. A run past --timeout is recorded as timeout: at least that long.
# Writes the work folder (runs, instances, rows) and the CSV (default build/odpip/side_by_side.csv);
# prints the table last (table.py).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${ODPIP_SIDE_DIR:-$root/build/odpip/side}"
models="uniform normal modified_uniform modified_normal exponential beta gamma ndcs agent_uniform agent_normal chi_square weibull f cauchy student_t zipf pascal"
sizes=25
seed=7
limit=120
methods=auto
cores=2-15
csv="$root/build/odpip/side_by_side.csv"
instances=""
budget=""
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --models) models="$2"; shift 2 ;;
    --n) sizes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --methods) methods="$2"; shift 2 ;;
    --cores) cores="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    --instances) instances="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "side_by_side.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
die() { echo "side_by_side.sh: $*" >&2; exit 1; }
kollective="${KOLLECTIVE:-$root/build/cuda/drivers/kollective}"
[[ -x "$kollective" ]] || die "no driver at $kollective (set KOLLECTIVE)"
driver_cpus="${KOLLECTIVE_CPUS:-0,1}"

source "$here/common.sh"

# Java: the carried bundle, or a local JDK.
if [[ -f "$root/.deps/src/odpip.tar.xz" ]]; then
  rm -rf "$work/bundle" && mkdir -p "$work/bundle"
  tar -xJf "$root/.deps/src/odpip.tar.xz" -C "$work/bundle"
  java="$work/bundle/odpip/jre/bin/java"
  classpath="$work/bundle/odpip/classes:$work/bundle/odpip/commons-math.jar"
else
  java=java
  classpath="$("$here/compile.sh" | tail -n 1)"
fi
"$java" -version 2>&1 | head -n 1 >&2

# The cores ODP-IP may use, one instance each: "2-15" or "2,3,5".
core_list=()
for part in ${cores//,/ }; do
  if [[ "$part" == *-* ]]; then for ((c = ${part%-*}; c <= ${part#*-}; ++c)); do core_list+=("$c"); done
  else core_list+=("$part"); fi
done
declare -A busy  # core -> pid of the ODP-IP run on it
free_core() {  # prints a core with no ODP-IP run on it, waiting for one
  while true; do
    for core in "${core_list[@]}"; do
      local pid="${busy[$core]:-}"
      if [[ -z "$pid" ]] || ! kill -0 "$pid" 2>/dev/null; then echo "$core"; return; fi
    done
    sleep 1
  done
}

within_budget() {  # within_budget SECONDS: the limit cut to end 20 s before the budget, at least 1
  local cut=$1
  if [[ -n "$budget" ]] && ((budget - SECONDS - 20 < cut)); then cut=$((budget - SECONDS - 20)); fi
  echo $((cut > 0 ? cut : 1))
}

rm -rf "$work/runs" && mkdir -p "$work/runs"
jobs_file="$work/jobs.txt"  # model n core load1 limit run_dir, one line per ODP-IP run
: > "$jobs_file"
if [[ -z "$instances" ]]; then
  for n in $sizes; do for model in $models; do instances+=" $model:$n"; done; done
fi
for instance in $instances; do
  if [[ -n "$budget" ]] && ((budget - SECONDS < 60)); then
    echo "== budget: $((budget - SECONDS)) s left, the instances from $instance on are not run" >&2
    break
  fi
  model="${instance%:*}" n="${instance#*:}"
  xmx="$(odpip_heap "$n" 4)"  # many JVMs at once
  name="${model}_n${n}_s${seed}"
  run_dir="$work/runs/$name"
  mkdir -p "$run_dir"
  values=""
  for method in $methods; do
    if [[ -z "$values" ]]; then
      input="generator: {model: $model, agents: $n, seed: $seed}"
      write="binary: true"
    else
      input="file: $values"
      write=""
    fi
    kollective_config "$run_dir/kollective_$method.yaml" "$name" "$run_dir/kollective_$method" "$method" "$input" \
      "$write"
    echo "== $name: Kollective $method" >&2
    set +e
    timeout --kill-after=5 "$(within_budget 600)" taskset -c "$driver_cpus" "$kollective" run "$run_dir/kollective_$method.yaml" --quiet \
      > "$run_dir/kollective_$method.log" 2>&1
    echo $? > "$run_dir/kollective_$method.rc"
    set -e
    [[ -z "$values" ]] && values="$run_dir/kollective_$method/${name}_values.kcsg"
  done
  if [[ ! -s "$values" ]]; then  # Kollective's rows still go to the table, ODP-IP's run as not run
    echo "   no instance written (log: $run_dir/kollective_${methods%% *}.log): ODP-IP not run" >&2
    echo notrun > "$run_dir/odpip.rc"
    echo "$model $n - - 0 $run_dir" >> "$jobs_file"
    continue
  fi
  core="$(free_core)"
  load1="$(cut -d' ' -f1 /proc/loadavg)"
  run_limit=$(within_budget "$limit")
  echo "== $name: ODP-IP on core $core (-Xmx$xmx, limit ${run_limit}s, load $load1)" >&2
  (
    set +e
    started=$SECONDS
    timeout --kill-after=5 "$run_limit" taskset -c "$core" "$java" -Xmx"$xmx" -cp "$classpath" OdpipRun "$values" --quiet \
      > "$run_dir/odpip.json" 2> "$run_dir/odpip.log"
    rc=$?
    # SIGKILL before the limit (the kernel's out-of-memory killer, say) is no timeout.
    if ((rc == 137 && SECONDS - started < run_limit)); then rc=killed; fi
    echo $rc > "$run_dir/odpip.rc"
    rm -f "$values"  # disk: 2^n doubles per instance
  ) &
  busy[$core]=$!
  echo "$model $n $core $load1 $run_limit $run_dir" >> "$jobs_file"
done
echo "== waiting for ODP-IP" >&2
wait

rows="${csv%.csv}.jsonl"
mkdir -p "$(dirname "$rows")"
: > "$rows"
while read -r model n core load1 run_limit run_dir; do
  name="${model}_n${n}_s${seed}"
  for method in $methods; do
    python3 "$here/row.py" "$model" "$n" "$seed" "$(cat "$run_dir/odpip.rc" 2>/dev/null)" "$run_dir/odpip.json" \
      "$(cat "$run_dir/kollective_$method.rc" 2>/dev/null)" "$run_dir/kollective_$method/$name.json" "$core" - "$load1" \
      "$run_limit" "$method" >> "$rows"
  done
done < "$jobs_file"
python3 "$here/table.py" "$rows" "$csv" 0
