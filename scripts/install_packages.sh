#!/usr/bin/env bash
# Install the Debian packages Kollective builds with, if any is missing (Debian/Ubuntu only).
#   scripts/install_packages.sh [fuzz|mpi|python]
#     fuzz: also clang with libFuzzer and the sanitizer runtimes, and llvm-symbolizer for readable
#           stacks; mpi: also Open MPI (the openmp-mpi and cuda-mpi presets);
#     python: also .deps/venv, a virtual environment with python/requirements.txt from PyPI (nanobind
#           for the extension, pytest, numpy, matplotlib and pref_voting for its tests)
set -euo pipefail
needed=(cmake g++ make git xz-utils patch curl libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev liblinear-tools
        clang-format pkg-config coinor-libclp-dev)
if [ "${1:-}" = fuzz ]; then needed+=(clang libclang-rt-dev llvm); fi
if [ "${1:-}" = mpi ]; then needed+=(libopenmpi-dev openmpi-bin); fi
if [ "${1:-}" = python ]; then needed+=(python3-dev python3-venv); fi
ensure_venv() {  # .deps/venv with python/requirements.txt, remade when that file changes
  local root venv stamp
  root=$(cd "$(dirname "$0")/.." && pwd)
  venv=${KOLLECTIVE_DEPS_DIR:-$root/.deps}/venv
  stamp=$(sha256sum "$root/python/requirements.txt" | cut -c1-16)
  [ -f "$venv/.requirements-$stamp" ] && return 0
  echo "install_packages: making .deps/venv (python/requirements.txt)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/python/requirements.txt"
  touch "$venv/.requirements-$stamp"
}
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || { echo "install_packages: missing ${missing[*]} and no apt-get; install them by hand" >&2; exit 1; }
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "install_packages: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = python ]; then ensure_venv; fi
