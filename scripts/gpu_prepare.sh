#!/usr/bin/env bash
# Prepares a GPU-machine run from a clean checkout: fetches every dependency source into
# .deps/src (about 7 MB, git-ignored) with the git revision, which the device tool carries. Then run, with the
# device tool, carry [".deps/src"] and the command
#   scripts/gpu_run.sh configs/schulze_scaling_gpu.yaml
# `scripts/gpu_prepare.sh python` also fetches the Python package's build tools as wheels into
# .deps/wheels (carry it too) for scripts/gpu_python.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = python ]; then  # pure-Python wheels, any Python 3 (tomli, exceptiongroup: before 3.11)
  "$root/scripts/install_packages.sh" python >/dev/null
  rm -rf "$root/.deps/wheels"
  "$root/.deps/venv/bin/python" -m pip download --quiet --only-binary=:all: --no-deps -d "$root/.deps/wheels" \
    --platform any --implementation py --python-version 3.9 scikit-build-core nanobind packaging pathspec tomli exceptiongroup
fi
"$root/scripts/fetch_deps.sh" yaml-cpp googletest benchmark coinutils clp  # COIN-OR CLP: Kemeny's LP bound
for package in kokkos kokkos-kernels; do  # the checked release archives, where bootstrap_kokkos.sh looks
  archive=$("$root/scripts/kokkos_sources.sh" "$package" 4.6.01 | tail -n 1)
  [ "$archive" -ef "$root/.deps/src/$(basename "$archive")" ] || cp "$archive" "$root/.deps/src/"
done
# SQLite's headers (the driver's results database): the GPU machine has the library
# (libsqlite3.so.0) but not libsqlite3-dev; these are the distribution's, installed here.
"$root/scripts/install_packages.sh" >/dev/null
mkdir -p "$root/.deps/src/sqlite3-include"
cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h "$root/.deps/src/sqlite3-include/"
# The copy sent to the GPU machine has no .git: record the revision for the result tables.
git -C "$root" describe --always --dirty --abbrev=12 > "$root/.deps/src/REVISION"
du -sh "$root/.deps/src"
echo 'carry: [".deps/src"]   command: scripts/gpu_run.sh configs/schulze_scaling_gpu.yaml'
