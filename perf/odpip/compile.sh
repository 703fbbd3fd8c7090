#!/usr/bin/env bash
# Compiles ODP-IP's Java release (only the classes our main reaches) with our OdpipRun.java into
# build/odpip/classes and prints the classpath (classes and commons-math) as its last line.
# Used by run.sh and bundle.sh. Environment: ODPIP_SOURCE, ODPIP_MIRROR, COMMONS_MATH_JAR (run.sh
# describes them).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build/odpip"
die() { echo "compile.sh: $*" >&2; exit 1; }
command -v javac >/dev/null || die "javac not found (a JDK, 11 or later: scripts/install_packages.sh odpip)"
# build/ must stay out of git: the ODP-IP sources and classes land there.
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$root" check-ignore -q "build/odpip/x" || die "build/odpip is not git-ignored; refusing to put ODP-IP's sources there"
fi
mkdir -p "$build"
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
echo "$classpath"
