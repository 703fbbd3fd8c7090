#!/usr/bin/env bash
# Install the Debian packages Kollective builds with, if any is missing (Debian/Ubuntu only).
#   scripts/install_packages.sh [fuzz|mpi]   fuzz: also clang with libFuzzer and the sanitizer
#                                            runtimes, and llvm-symbolizer for readable stacks;
#                                            mpi: also Open MPI (the openmp-mpi and cuda-mpi presets)
set -euo pipefail
needed=(cmake g++ make git xz-utils patch curl libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev liblinear-tools
        clang-format pkg-config coinor-libclp-dev)
if [ "${1:-}" = fuzz ]; then needed+=(clang libclang-rt-dev llvm); fi
if [ "${1:-}" = mpi ]; then needed+=(libopenmpi-dev openmpi-bin); fi
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null || { echo "install_packages: missing ${missing[*]} and no apt-get; install them by hand" >&2; exit 1; }
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
echo "install_packages: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
