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

models="uniform normal modified_uniform modified_normal exponential beta gamma ndcs agent_uniform agent_normal"
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
command -v javac >/dev/null || die "javac not found (a JDK, 11 or later)"
command -v python3 >/dev/null || die "python3 not found (it parses the JSON and writes the CSV)"
command -v taskset >/dev/null || die "taskset not found (util-linux)"

# build/ must stay out of git: the ODP-IP sources and classes land there.
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$root" check-ignore -q "build/odpip/x" || die "build/odpip is not git-ignored; refusing to put ODP-IP's sources there"
fi
mkdir -p "$build"/{instances,runs,classes}

# --- ODP-IP's sources --------------------------------------------------------------------------
if [[ -n "${ODPIP_SOURCE:-}" ]]; then
  source_root="$ODPIP_SOURCE"
  [[ -d "$source_root/release_March_2014/packages" ]] ||
    die "ODPIP_SOURCE=$source_root holds no release_March_2014/packages"
else
  mirror="${ODPIP_MIRROR:-/work/.mirror/trahwan+ODP-IP/repo/.git}"
  [[ -d "$mirror" ]] || die "set ODPIP_SOURCE to a folder holding release_March_2014 (see perf/odpip/README.md); no mirror at $mirror"
  commit="$(git --git-dir="$mirror" rev-parse HEAD)"
  source_root="$build/src"
  if [[ "$(cat "$source_root/COMMIT" 2>/dev/null || true)" != "$commit" ]]; then
    rm -rf "$source_root" && mkdir -p "$source_root/release_March_2014/packages"
    # Only packages/ (the sources): the mirror lacks the release's jar blobs.
    git --git-dir="$mirror" archive "$commit:release_March_2014/packages" |
      tar -x -C "$source_root/release_March_2014/packages"
    echo "$commit" > "$source_root/COMMIT"
  fi
fi
packages="$source_root/release_March_2014/packages"
if [[ -n "${COMMONS_MATH_JAR:-}" ]]; then
  math_jar="$COMMONS_MATH_JAR"
elif [[ -s "$source_root/release_March_2014/commons-math-2.2.jar" ]] &&
     unzip -tq "$source_root/release_March_2014/commons-math-2.2.jar" >/dev/null 2>&1; then
  math_jar="$source_root/release_March_2014/commons-math-2.2.jar"
else
  math_jar=/usr/share/java/commons-math.jar
fi
[[ -f "$math_jar" ]] || die "commons-math 2.2 not found: set COMMONS_MATH_JAR, or apt-get install libcommons-math-java"

# --- compile their sources reachable from our main, and our main ---------------------------------
classes="$build/classes"
rm -rf "$classes" && mkdir -p "$classes"
# -sourcepath compiles only what OdpipRun reaches (ipSolver, dpSolver, mainSolver.Result, inputOutput,
# general): not MainSolver, whose CPLEX import needs IBM's jar.
javac -nowarn -encoding ISO-8859-1 -d "$classes" -cp "$math_jar" -sourcepath "$packages" \
  "$here/OdpipRun.java" 2> "$build/javac.log" || { cat "$build/javac.log" >&2; die "javac failed"; }
classpath="$classes:$math_jar"

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
      cat > "$run_dir/generate.yaml" <<EOF
title: ODP-IP peer instance $name
output: $gen_dir
runs:
  - name: $name
    algorithm: coalition
    input:
      generator: {model: $model, agents: $n, seed: $seed}
    options: {method: idp, precision: double}
    verify: false
    write: {values: true}
EOF
      echo "== $name: writing the instance" >&2
      OMP_NUM_THREADS="$threads" "$kollective" run "$run_dir/generate.yaml" --quiet \
        --kokkos-num-threads="$threads" > "$run_dir/generate.log" 2>&1 ||
        { cat "$run_dir/generate.log" >&2; die "$name: the driver could not write the instance"; }
      mv "$gen_dir/${name}_values.txt" "$values.tmp" && mv "$values.tmp" "$values"
    fi

    # 2. ODP-IP, pinned, under a time limit.
    xmx="${ODPIP_XMX:-$(( ( (1 << n) * 8 * 16 >> 20 ) > 1024 ? ( (1 << n) * 8 * 16 >> 20 ) : 1024 ))m}"
    load1="$(cut -d' ' -f1 /proc/loadavg)"
    echo "== $name: ODP-IP (taskset -c $cpus, -Xmx$xmx, limit ${limit}s, load $load1)" >&2
    set +e
    timeout --kill-after=10 "$limit" taskset -c "$cpus" java -Xmx"$xmx" -cp "$classpath" OdpipRun "$values" \
      $quiet_odpip > "$run_dir/odpip.json" 2> "$run_dir/odpip.log"
    odpip_rc=$?
    set -e

    # 3. Kollective on the same file, each method; a row each (ODP-IP's run repeated).
    for method in $methods; do
    cat > "$run_dir/kollective_$method.yaml" <<EOF
title: Kollective on $name
output: $run_dir/kollective_$method
runs:
  - name: $name
    algorithm: coalition
    input: {file: $values, format: text}
    options: {method: $method, precision: double}
    verify: false
EOF
    echo "== $name: Kollective $method ($threads threads)" >&2
    rm -rf "$run_dir/kollective_$method"
    set +e
    OMP_NUM_THREADS="$threads" timeout --kill-after=10 "$limit" "$kollective" run "$run_dir/kollective_$method.yaml" \
      --quiet --kokkos-num-threads="$threads" > "$run_dir/kollective_$method.log" 2>&1
    kollective_rc=$?
    set -e

    python3 - "$model" "$n" "$seed" "$odpip_rc" "$run_dir/odpip.json" "$kollective_rc" \
      "$run_dir/kollective_$method/$name.json" "$cpus" "$threads" "$load1" "$limit" "$method" >> "$rows" <<'EOF'
import json, sys
model, n, seed, odpip_rc, odpip_json, k_rc, k_json, cpus, threads, load1, limit, method = sys.argv[1:]
row = {"model": model, "n": int(n), "seed": int(seed)}
def close(a, b):
    if a is None or b is None:
        return None
    scale = max(abs(a), abs(b))
    return abs(a - b) <= 1e-9 * scale if scale > 0 else a == b
o = None
rc = int(odpip_rc)
if rc in (124, 137):
    status = "timeout"
elif rc != 0:
    status = "error(rc=%d)" % rc
else:
    try:
        with open(odpip_json) as f:
            o = json.loads(f.read().strip().splitlines()[-1])
        status = "ok"
    except Exception as e:  # no or broken JSON
        status = "error(no json)"
k = None
if int(k_rc) == 0:
    try:
        with open(k_json) as f:
            k = json.load(f)["rows"][0]
        k_status = "ok"
    except Exception:
        k_status = "error(no table)"
else:
    k_status = "timeout" if int(k_rc) in (124, 137) else "error(rc=%s)" % k_rc
row["odpip_seconds"] = o["seconds"] if o else None
row["odpip_value"] = o["value"] if o else None
row["odpip_structure_value"] = o["structure_value"] if o else None
row["kollective_method"] = method
row["kollective_solved_by"] = k["method"] if k else None
row["kollective_nodes"] = k.get("nodes") if k else None
row["kollective_seconds"] = k["solve_s"] if k else None
row["kollective_value"] = k["optimum"] if k else None
row["values_equal"] = close(row["odpip_value"], row["kollective_value"])
row["odpip_status"] = status
row["kollective_status"] = k_status
row["odpip_structure_adds_up"] = close(row["odpip_value"], row["odpip_structure_value"])
row["odpip_partition_ok"] = o["partition_ok"] if o else None
row["odpip_idp_max_size"] = o["idp_max_size"] if o else None
row["odpip_idp_stop_size"] = o["idp_stop_size"] if o else None
row["odpip_ended_by"] = o["ended_by"] if o else None
row["odpip_cpus"] = cpus
row["kollective_threads"] = int(threads)
row["load1_before"] = float(load1)
row["timeout_s"] = float(limit)
print(json.dumps(row))
EOF
    echo "   $(tail -n 1 "$rows")" >&2
    done
  done
done

# --- the CSV and the table ---------------------------------------------------------------------
mkdir -p "$(dirname "$csv")"
python3 - "$rows" "$csv" "$append" <<'EOF'
import csv, json, os, sys
rows_path, csv_path, append = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
columns = ["model", "n", "seed", "odpip_seconds", "odpip_value", "odpip_structure_value",
           "kollective_method", "kollective_solved_by", "kollective_nodes", "kollective_seconds", "kollective_value", "values_equal", "odpip_status", "kollective_status",
           "odpip_structure_adds_up", "odpip_partition_ok", "odpip_idp_max_size", "odpip_idp_stop_size",
           "odpip_ended_by", "odpip_cpus", "kollective_threads", "load1_before", "timeout_s"]
rows = [json.loads(line) for line in open(rows_path) if line.strip()]
def cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)
write_header = not (append and os.path.exists(csv_path) and os.path.getsize(csv_path) > 0)
with open(csv_path, "a" if append else "w", newline="") as f:
    w = csv.writer(f)
    if write_header:
        w.writerow(columns)
    for r in rows:
        w.writerow([cell(r.get(c)) for c in columns])
print("\n%-17s %3s  %12s %20s %7s  %-9s %12s %20s  %5s" % (
    "model", "n", "odpip_s", "odpip_value", "idp/stop", "method", "kollective_s", "kollective_value", "equal"))
for r in rows:
    def num(v, fmt):
        return fmt % v if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"
    idp = "%s/%s" % (r["odpip_idp_max_size"], r["odpip_idp_stop_size"]) if r["odpip_idp_max_size"] is not None else "-"
    o_s = num(r["odpip_seconds"], "%.3f") if r["odpip_status"] == "ok" else r["odpip_status"]
    k_s = num(r["kollective_seconds"], "%.3f") if r["kollective_status"] == "ok" else r["kollective_status"]
    eq = "-" if r["values_equal"] is None else ("yes" if r["values_equal"] else "NO")
    if r["odpip_structure_adds_up"] is False or r["odpip_partition_ok"] is False:
        eq += " (ODP-IP structure != value)"
    print("%-17s %3d  %12s %20s %7s  %-9s %12s %20s  %5s" % (
        r["model"], r["n"], o_s, num(r["odpip_value"], "%.10g"), idp,
        "%s:%s" % (r["kollective_method"], r["kollective_solved_by"] or "-"), k_s,
        num(r["kollective_value"], "%.10g"), eq))
print("\nCSV: %s" % csv_path)
EOF
