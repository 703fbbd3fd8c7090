#!/usr/bin/env bash
# Runs on the GPU machine (no package registry): builds yaml-cpp, GoogleTest, Google Benchmark and
# patched Kokkos from the sources carried in .deps/src, builds the CUDA preset, runs the CUDA
# tests and the given perf configs, and prints a short table last. COIN-OR CLP (Kemeny's LP bound) is
# built from its carried sources too, when gpu_prepare.sh fetched them.
#   scripts/gpu_run.sh [CONFIG.yaml ...]        (no config: build and test only)
# Prepare here first with scripts/gpu_prepare.sh, then carry .deps/src. Logs and tables go to
# $OUT (the device tool's output folder) or ./gpu-out. Several GPUs:
#   KOLLECTIVE_GPU_PRESET=cuda-mpi KOLLECTIVE_GPU_RANKS="1 2" scripts/gpu_run.sh CONFIG.yaml
# builds with MPI + NCCL and runs each config under `mpirun -np R` for each R (NVLink multicast
# off); KOLLECTIVE_GPU_TESTS=REGEX runs only the matching tests (none: no tests), KOLLECTIVE_GPU_TARGETS="a b"
# builds only those targets. KOLLECTIVE_GPU_PRESET=openmp builds the OpenMP backend instead, to
# compare the two builds on one host.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
jobs=$(nproc)
# The revision recorded by gpu_prepare.sh names the tables (this copy's .git may be stale).
[ -f "$root/.deps/src/REVISION" ] && export KOLLECTIVE_REVISION=$(cat "$root/.deps/src/REVISION")
deps=$root/.deps
tools=$deps/install/tools
configs=("$@")
preset=${KOLLECTIVE_GPU_PRESET:-cuda}
read -r -a rank_counts <<< "${KOLLECTIVE_GPU_RANKS:-}"
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
log() { echo "gpu_run: $*" >&2; }
step() {  # step NAME COMMAND...: runs, logs to $out/NAME.log, stops the script on failure
  local name=$1; shift
  log "$name"
  if ! "$@" >"$out/$name.log" 2>&1; then tail -n 40 "$out/$name.log"; log "$name FAILED (log: $name.log)"; exit 1; fi
}

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,memory.total,driver_version --format=csv | tee "$out/gpu.csv"

build_tool() {  # build_tool PACKAGE CMAKE_OPTIONS...
  local package=$1; shift
  [ -f "$tools/.$package" ] && return 0
  rm -rf "$deps/build/$package" && mkdir -p "$deps/build"
  tar -xJf "$deps/src/$package.tar.xz" -C "$deps/build"
  cmake -S "$deps/build/$package" -B "$deps/build/$package/_build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$tools" -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "$@" &&
    cmake --build "$deps/build/$package/_build" -j "$jobs" && cmake --install "$deps/build/$package/_build" &&
    touch "$tools/.$package"
}
step tools_yaml build_tool yaml-cpp -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF
step tools_gtest build_tool googletest -DBUILD_GMOCK=ON
step tools_benchmark build_tool benchmark -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_WERROR=OFF
build_autotools() {  # build_autotools PACKAGE CONFIGURE_OPTIONS...
  local package=$1; shift
  [ -f "$tools/.$package" ] && return 0
  rm -rf "$deps/build/$package" && mkdir -p "$deps/build"
  tar -xJf "$deps/src/$package.tar.xz" -C "$deps/build"
  (cd "$deps/build/$package" && PKG_CONFIG_PATH="$tools/lib/pkgconfig" ./configure -q --prefix="$tools" \
     --disable-dependency-tracking "$@" && make -j "$jobs" && make install) && touch "$tools/.$package"
}
lp=off
if [ -f "$deps/src/clp.tar.xz" ]; then  # COIN-OR CLP for Kemeny's LP bound, without its optional solvers
  coin=(--enable-shared --disable-static --without-lapack --without-blas --without-glpk --without-sample
        --without-netlib --without-amd --without-cholmod --without-mumps)
  log "tools_coinutils, tools_clp"
  if build_autotools coinutils "${coin[@]}" >"$out/tools_coinutils.log" 2>&1 &&
     build_autotools clp "${coin[@]}" >"$out/tools_clp.log" 2>&1; then
    lp=on
  else
    log "CLP did not build (tools_coinutils.log, tools_clp.log): configuring without Kemeny's LP bound"
  fi
fi
export PKG_CONFIG_PATH="$tools/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
backend=cuda
case $preset in openmp*) backend=openmp;; esac
step kokkos bash -c "'$root/scripts/bootstrap_kokkos.sh' $backend > '$out/kokkos_prefix'"
prefix=$(tail -n 1 "$out/kokkos_prefix")
# -lineinfo: line tables only (the same machine code), as scripts/gpu_sanitize.sh builds, so it reuses this build.
compiler=()
[ $backend = cuda ] && compiler=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DCMAKE_CXX_FLAGS=-lineinfo)
sqlite=()  # the results database: the machine's libsqlite3.so.0 with the headers gpu_prepare.sh carried
if [ ! -f /usr/include/sqlite3.h ] && [ -f "$deps/src/sqlite3-include/sqlite3.h" ]; then
  sqlite=(-DSQLite3_INCLUDE_DIR="$deps/src/sqlite3-include"
          -DSQLite3_LIBRARY="$(ldconfig -p | awk '/libsqlite3\.so\.0 /{print $NF; exit}')")
fi
step configure cmake --preset "$preset" -S "$root" -DCMAKE_PREFIX_PATH="$prefix;$tools" "${compiler[@]}" "${sqlite[@]}" -DKOLLECTIVE_LP=$lp \
  -DKOLLECTIVE_ENABLE_PYTHON=OFF  # no PyPI there for nanobind
targets=()  # KOLLECTIVE_GPU_TARGETS="a b": build only those (default: everything)
for target in ${KOLLECTIVE_GPU_TARGETS:-}; do targets+=(--target "$target"); done
step build cmake --build "$root/build/$preset" -j "$jobs" "${targets[@]}"
if [ "${KOLLECTIVE_GPU_TESTS:-}" = none ]; then
  echo "no tests run (KOLLECTIVE_GPU_TESTS=none)" >"$out/tests.log"
  tests_status=0
else
  (cd "$root/build/$preset" && ctest -j 4 --timeout 600 --output-on-failure ${KOLLECTIVE_GPU_TESTS:+-R "$KOLLECTIVE_GPU_TESTS"}) \
    >"$out/tests.log" 2>&1
  tests_status=$?
fi
grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/tests.log" | head -n 20

summary=()
walls=()
run_config() {  # run_config CONFIG NAME [LAUNCHER...]
  local config=$1 name=$2; shift 2
  log "running $config ${*:-}"
  local start=$(date +%s.%N)
  (cd "$root" && stdbuf -oL "$@" ./build/$preset/drivers/kollective run "$config" --out "$out/$name") \
    >"$out/$name.log" 2>&1 || { tail -n 20 "$out/$name.log"; log "$config FAILED"; }
  # Wall time of the whole run (process start, every point, the tables): a sweep's throughput.
  walls+=("$(awk -v name="$name" -v start="$start" -v end="$(date +%s.%N)" 'BEGIN { printf "%-40s %8.2f s", name, end - start }')")
  summary+=("$out/$name")
}
for config in "${configs[@]}"; do
  name=$(basename "$config" .yaml)
  if [ ${#rank_counts[@]} = 0 ]; then run_config "$config" "$name"; continue; fi
  for ranks in "${rank_counts[@]}"; do
    run_config "$config" "${name}_np$ranks" mpirun --allow-run-as-root -np "$ranks" -x NCCL_NVLS_ENABLE --bind-to none
  done
done
[ "${KOLLECTIVE_GPU_BENCH:-0}" = 1 ] && (cd "$root" && ./build/cuda/perf/kollective_bench --benchmark_min_time=1 \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json) >"$out/bench.log" 2>&1

echo
echo "== $preset tests: $([ $tests_status = 0 ] && echo passed || echo FAILED) =="
for dir in "${summary[@]}"; do
  for table in "$dir"/*.csv; do
    [ -f "$table" ] || continue
    case $table in *_ranking.csv|*_paths.csv|*_pairwise.csv) continue;; esac
    python3 - "$table" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if 'paths_s' in r:
        print(f"{r['run']:<28} n={r['alternatives']:>6} bits={r['strength_bits']:>2} paths={float(r['paths_s']):9.4f}s "
              f"solve={float(r['solve_s']):9.4f}s {float(r['tera_updates_per_s']):6.2f} T/s verified={r['verified']}")
    elif 'agents' in r:
        print(f"{r['run']:<28} n={r['agents']:>3} {r['method']:<4} {r.get('precision', r.get('values', '')):<6} optimum={float(r['optimum']):.6f} "
              f"{float(r['solve_s']):9.4f}s {float(r['splits_per_s']):9.3g} splits/s ranks={r.get('ranks', 1)} "
              f"exchange={float(r.get('exchange_s', 0)):.4f}s nodes={r.get('nodes', '')} verified={r['verified']}")
    elif 'cg_steps' in r:
        print(f"{r['run']:<28} docs={r['documents']:>9} {r.get('precision') or r['feature_precision']:<6} f={float(r['objective']):.12e} "
              f"{float(r['solve_s']):8.3f}s setup={float(r['setup_s']):6.3f}s cg={r['cg_steps']:>5} ranks={r.get('ranks', 1)} "
              f"exchange={float(r.get('exchange_s') or 0):.4f}s")
    elif 'method' in r:
        print(f"{r['run']:<28} n={r['alternatives']:>3} m={r['voters']:>5} {r['method']:<22} d={r['distance']:>8} "
              f"optima={r.get('optimal_rankings', '?'):>4} {float(r['solve_s']):9.4f}s layers={float(r.get('dp_layers_s') or 0):.4f}s "
              f"exchange={float(r.get('exchange_s') or 0):.4f}s ranks={r.get('ranks', 1)} verified={r['verified']}")
PY
  done
done
[ ${#walls[@]} -gt 0 ] && { echo "== wall time per config run =="; printf '%s\n' "${walls[@]}" | tee "$out/walls.txt"; }
exit $tests_status
