#!/usr/bin/env bash
# Prepares a GPU-machine run from a clean checkout: fetches every dependency source into
# .deps/src (about 7 MB, git-ignored) with the git revision, which the device tool carries. Then run, with the
# device tool, carry [".deps/src"] and the command
#   scripts/gpu_run.sh configs/schulze_scaling_gpu.yaml
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/fetch_deps.sh" yaml-cpp googletest benchmark coinutils clp  # COIN-OR CLP: Kemeny's LP bound
for package in kokkos kokkos-kernels; do  # the checked release archives, where bootstrap_kokkos.sh looks
  archive=$("$root/scripts/kokkos_sources.sh" "$package" 4.6.01 | tail -n 1)
  [ "$archive" -ef "$root/.deps/src/$(basename "$archive")" ] || cp "$archive" "$root/.deps/src/"
done
# The copy sent to the GPU machine has no .git: record the revision for the result tables.
git -C "$root" describe --always --dirty --abbrev=12 > "$root/.deps/src/REVISION"
du -sh "$root/.deps/src"
echo 'carry: [".deps/src"]   command: scripts/gpu_run.sh configs/schulze_scaling_gpu.yaml'
