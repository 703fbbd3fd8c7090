#!/usr/bin/env bash
# ODP-IP (Michalak, Rahwan et al., AIJ 2016; Java release_March_2014) against Kollective's coalition
# solver (method idp) on the same coalition value files. See perf/odpip/README.md.
#
#   perf/odpip/run.sh [--models "uniform normal ..."] [--n "18 20"] [--seed 7] [--timeout 300]
#                     [--methods "idp auto"] [--csv FILE] [--append] [--quiet-odpip]
#
# Environment:
#   ODPIP_SOURCE        a folder holding release_March_2014/packages (a clone or an unpacked copy of
#                       ODP-IP); default: extracted from the git mirror ODPIP_MIRROR
#   ODPIP_MIRROR        default /work/.mirror/trahwan+ODP-IP/repo/.git
#   COMMONS_MATH_JAR    Apache commons-math 2.2 (their Input imports it); default: the release's own
#                       commons-math-2.2.jar if present, else /usr/share/java/commons-math.jar
#                       (Debian: apt-get install libcommons-math-java)
#   KOLLECTIVE          the driver; default build/openmp/drivers/kollective
#   ODPIP_CPUS          taskset CPU list for ODP-IP (default 1: one core for both of its threads)
#   KOLLECTIVE_THREADS  OpenMP threads for Kollective (default 2)
#   ODPIP_XMX           java -Xmx (default: enough for ~16 arrays of 2^n doubles, at least 1g)
#
# Writes everything under build/odpip/ (git-ignored): src/ (their sources, when extracted),
# classes/, instances/ (the value files, written once per model, n and seed), runs/ (each solve's
# JSON, logs and driver tables) and the CSV (default build/odpip/results.csv).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build/odpip"

models="uniform normal modified_uniform modified_normal exponential beta gamma ndcs agent_uniform agent_normal chi_square weibull f cauchy student_t zipf pascal"
sizes="18 20"
seed=7
limit="${ODPIP_TIMEOUT:-300}"
csv="$build/results.csv"
append=0
quiet_odpip=""
methods=idp

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --models) models="$2"; shift 2 ;;
    --n) sizes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    --append) append=1; shift ;;
    --methods) methods="$2"; shift 2 ;;
    --quiet-odpip) quiet_odpip="--quiet"; shift ;;
    -h|--help) usage 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done

die() { echo "run.sh: $*" >&2; exit 1; }

kollective="${KOLLECTIVE:-$root/build/openmp/drivers/kollective}"
cpus="${ODPIP_CPUS:-1}"
threads="${KOLLECTIVE_THREADS:-2}"
[[ -x "$kollective" ]] || die "no driver at $kollective (build the openmp preset, or set KOLLECTIVE)"
[ -n "${ODPIP_SKIP_INSTALL:-}" ] || "$root/scripts/install_packages.sh" odpip
command -v python3 >/dev/null || die "python3 not found (it parses the JSON and writes the CSV)"
command -v taskset >/dev/null || die "taskset not found (util-linux)"

source "$here/common.sh"
classpath="$("$here/compile.sh" | tail -n 1)"
mkdir -p "$build"/{instances,runs}

# --- the runs ----------------------------------------------------------------------------------
# One JSON line per row as it is measured, kept (an interrupted run's rows stay there).
rows="${csv%.csv}.jsonl"
mkdir -p "$(dirname "$rows")"
: > "$rows"

for n in $sizes; do
  for model in $models; do
    name="${model}_n${n}_s${seed}"
    values="$build/instances/${name}_values.txt"
    run_dir="$build/runs/$name"
    mkdir -p "$run_dir"

    # 1. The instance, written once by the driver's generator (write: {values: true}).
    if [[ ! -s "$values" ]]; then
      gen_dir="$run_dir/generate"
      kollective_config "$run_dir/generate.yaml" "$name" "$gen_dir" idp \
        "generator: {model: $model, agents: $n, seed: $seed}" "values: true"
      echo "== $name: writing the instance" >&2
      OMP_NUM_THREADS="$threads" "$kollective" run "$run_dir/generate.yaml" --quiet \
        --kokkos-num-threads="$threads" > "$run_dir/generate.log" 2>&1 ||
        { cat "$run_dir/generate.log" >&2; die "$name: the driver could not write the instance"; }
      mv "$gen_dir/${name}_values.txt" "$values.tmp" && mv "$values.tmp" "$values"
    fi

    # 2. ODP-IP, pinned, under a time limit.
    xmx="$(odpip_heap "$n" 16)"
    load1="$(cut -d' ' -f1 /proc/loadavg)"
    echo "== $name: ODP-IP (taskset -c $cpus, -Xmx$xmx, limit ${limit}s, load $load1)" >&2
    set +e
    timeout --kill-after=10 "$limit" taskset -c "$cpus" java -Xmx"$xmx" -cp "$classpath" OdpipRun "$values" \
      $quiet_odpip > "$run_dir/odpip.json" 2> "$run_dir/odpip.log"
    odpip_rc=$?
    set -e

    # 3. Kollective on the same file, each method; a row each (ODP-IP's run repeated).
    for method in $methods; do
    kollective_config "$run_dir/kollective_$method.yaml" "$name" "$run_dir/kollective_$method" "$method" \
      "file: $values, format: text"
    echo "== $name: Kollective $method ($threads threads)" >&2
    rm -rf "$run_dir/kollective_$method"
    set +e
    OMP_NUM_THREADS="$threads" timeout --kill-after=10 "$limit" "$kollective" run "$run_dir/kollective_$method.yaml" \
      --quiet --kokkos-num-threads="$threads" > "$run_dir/kollective_$method.log" 2>&1
    kollective_rc=$?
    set -e

    python3 "$here/row.py" "$model" "$n" "$seed" "$odpip_rc" "$run_dir/odpip.json" "$kollective_rc" \
      "$run_dir/kollective_$method/$name.json" "$cpus" "$threads" "$load1" "$limit" "$method" >> "$rows"
    echo "   $(tail -n 1 "$rows")" >&2
    done
  done
done

# --- the CSV and the table ---------------------------------------------------------------------
mkdir -p "$(dirname "$csv")"
python3 "$here/table.py" "$rows" "$csv" "$append"
