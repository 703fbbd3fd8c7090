#!/usr/bin/env bash
# Install the Debian packages Kollective builds with, if any is missing (Debian/Ubuntu only).
#   scripts/install_packages.sh [fuzz|mpi|odpip|python|python-test]
#     fuzz: also clang with libFuzzer and the sanitizer runtimes, and llvm-symbolizer for readable
#           stacks; mpi: also Open MPI (the openmp-mpi and cuda-mpi presets); odpip: also a JDK and
#           Apache commons-math 2.2 (the ODP-IP peer in perf/odpip);
#     python: also .deps/venv, a virtual environment with python/requirements.txt from PyPI (nanobind
#           and numpy, to build the extension); python-test: that venv with
#           python/requirements-test.txt too (pytest, matplotlib, pref_voting: tests and plots)
set -euo pipefail
needed=(cmake g++ make git xz-utils patch curl libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev liblinear-tools
        clang-format pkg-config coinor-libclp-dev libsqlite3-dev)
if [ "${1:-}" = fuzz ]; then needed+=(clang libclang-rt-dev llvm); fi
if [ "${1:-}" = mpi ]; then needed+=(libopenmpi-dev openmpi-bin); fi
if [ "${1:-}" = odpip ]; then needed+=(openjdk-17-jdk-headless libcommons-math-java); fi
case ${1:-} in python|python-test) needed+=(python3-dev python3-venv);; esac
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${KOLLECTIVE_DEPS_DIR:-$root/.deps}/venv
stamp_of() { echo "$venv/.$(basename "$1" .txt)-$(sha256sum "$1" | cut -c1-16)"; }
ensure_venv() {  # .deps/venv with python/requirements.txt, remade when that file changes
  local stamp
  stamp=$(stamp_of "$root/python/requirements.txt")
  [ -f "$stamp" ] && return 0
  echo "install_packages: making .deps/venv (python/requirements.txt)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/python/requirements.txt"
  touch "$stamp"
}
ensure_test_packages() {  # python/requirements-test.txt into that venv
  local stamp
  stamp=$(stamp_of "$root/python/requirements-test.txt")
  [ -f "$stamp" ] && return 0
  echo "install_packages: adding python/requirements-test.txt to .deps/venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/python/requirements-test.txt"
  touch "$stamp"
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
case ${1:-} in python) ensure_venv;; python-test) ensure_venv; ensure_test_packages;; esac
