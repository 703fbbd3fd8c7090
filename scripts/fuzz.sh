#!/usr/bin/env bash
# Fuzz every file reader and the config validation (tests/fuzz/README.md): builds the targets in
# the sanitized build scripts/sanitize.sh shares (scripts/sanitized_build.sh: Kokkos built with
# clang, Serial; the `fuzz` preset, libFuzzer + ASan + UBSan), then runs each
# target from its committed seeds (scripts/fuzz_run.sh: one target per core at a time). Any crash,
# sanitizer report, leak, timeout or out-of-memory is a finding: its input is saved under
# build/fuzz/findings/<target>/ and the script fails.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30)
# Env: KOLLECTIVE_FUZZ_TARGETS (space-separated subset), KOLLECTIVE_FUZZ_FINDINGS (where crash
# inputs go), KOLLECTIVE_CLANG_CXX (default clang++), KOLLECTIVE_JOBS (build jobs and targets at
# once), KOLLECTIVE_DEPS_DIR (bootstrap cache).
set -euo pipefail
seconds=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KOLLECTIVE_JOBS:-$(nproc)}

build=$("$root/scripts/sanitized_build.sh" fuzz kollective_fuzzers | tail -n 1)
"$root/scripts/fuzz_run.sh" "$build/tests/fuzz" "$seconds" "$jobs"
