#!/usr/bin/env bash
# Packs what ODP-IP needs on a machine without Java (the GPU machines) into .deps/src/odpip.tar.xz,
# which the device tool carries with .deps/src: our main compiled with their classes (compile.sh),
# commons-math, and a Java runtime holding only the modules those classes use (jdeps, jlink; about
# 15 MB packed). side_by_side.sh unpacks and uses it.
#   perf/odpip/bundle.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
"$root/scripts/install_packages.sh" odpip >/dev/null
classpath="$("$here/compile.sh" | tail -n 1)"
classes="${classpath%%:*}"
math_jar="${classpath#*:}"
stage="$root/build/odpip/bundle"
rm -rf "$stage" && mkdir -p "$stage/odpip"
cp -r "$classes" "$stage/odpip/classes"
cp -L "$math_jar" "$stage/odpip/commons-math.jar"
modules="$(jdeps --print-module-deps --ignore-missing-deps --recursive -cp "$math_jar" "$classes")"
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 --output "$stage/odpip/jre"
mkdir -p "$root/.deps/src"
tar -cJf "$root/.deps/src/odpip.tar.xz" -C "$stage" odpip
echo "bundle.sh: $(du -h "$root/.deps/src/odpip.tar.xz" | cut -f1) in .deps/src/odpip.tar.xz (modules: $modules)"
