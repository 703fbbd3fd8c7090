#!/usr/bin/env bash
# Issue #18's CUDA build of the Python package, on a GPU machine (no PyPI there): builds yaml-cpp
# and Kokkos (CUDA, position-independent) from the carried sources, `pip wheel .` against them
# with the build tools carried as wheels, installs the wheel in a scratch folder, and runs
# perf/python_backends.py, comparing its answers with another build's JSON (the OpenMP one).
# Prepare here with `scripts/gpu_prepare.sh python`, then run with the device tool, carrying
# [".deps/src", ".deps/wheels"]:
#   scripts/gpu_python.sh openmp.json   (python/h200_cuda.md's was restored by
#   `git archive 719fcda perf/results/2026-11-26_python_cuda | tar -x`)
# A call that runs out of time can be repeated on the warm machine: the builds carry on.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
compare=${1:?usage: scripts/gpu_python.sh OTHER_BUILD.json}
deps=$root/.deps
tools=$deps/install/tools
export CMAKE_BUILD_PARALLEL_LEVEL=$(nproc)
mkdir -p "$out"
log() { echo "gpu_python: $*" >&2; }
step() {  # step NAME COMMAND...: runs, logs to $out/NAME.log, stops the script on failure
  local name=$1; shift
  log "$name"
  if ! "$@" >"$out/$name.log" 2>&1; then tail -n 30 "$out/$name.log"; log "$name FAILED (log: $name.log)"; exit 1; fi
}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.csv"
python3 --version | tee "$out/python.txt"

build_yaml_cpp() {  # core reads YAML configs
  [ -f "$tools/.yaml-cpp" ] && return 0
  rm -rf "$deps/build/yaml-cpp" && mkdir -p "$deps/build" && tar -xJf "$deps/src/yaml-cpp.tar.xz" -C "$deps/build"
  cmake -S "$deps/build/yaml-cpp" -B "$deps/build/yaml-cpp/_build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$tools" -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
        -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF &&
    cmake --build "$deps/build/yaml-cpp/_build" && cmake --install "$deps/build/yaml-cpp/_build" && touch "$tools/.yaml-cpp"
}
step yaml_cpp build_yaml_cpp
step kokkos bash -c "'$root/scripts/bootstrap_kokkos.sh' cuda > '$out/kokkos_prefix'"
prefix=$(tail -n 1 "$out/kokkos_prefix")
work=$deps/python-cuda
step build_tools python3 -m pip install --no-index --find-links "$deps/wheels" --target "$work/build-tools" --upgrade \
  scikit-build-core nanobind
rm -rf "$work/dist"
step wheel env PYTHONPATH="$work/build-tools" python3 -m pip wheel "$root" --no-deps --no-build-isolation --no-index \
  -w "$work/dist" -v -Ccmake.define.Kokkos_ROOT="$prefix" -Ccmake.define.CMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" \
  -Ccmake.define.CMAKE_PREFIX_PATH="$prefix;$tools"
rm -rf "$work/site"
step install python3 -m pip install --no-deps --no-index --target "$work/site" "$work"/dist/kollective-*.whl
ls -la "$work"/dist | tee "$out/wheel.txt"
cd "$root" && PYTHONPATH="$work/site" python3 perf/python_backends.py --out "$out/cuda.json" --compare "$compare" \
  2>&1 | tee "$out/backends.txt"
