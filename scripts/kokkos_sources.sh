#!/usr/bin/env bash
# Finds a Kokkos or Kokkos Kernels release archive and checks its SHA-256; prints its path on the
# last line of stdout.
#   scripts/kokkos_sources.sh kokkos|kokkos-kernels VERSION
# Looks in KOLLECTIVE_KOKKOS_SOURCES (default ../shared/vendor beside the checkout), then in
# .deps/src, for NAME-VERSION.tar.xz (the release tag as `git archive`) or NAME-VERSION.tar.gz
# (the release download); failing both, downloads the .tar.gz from the project's GitHub release
# into .deps/src. An archive whose checksum is not the one listed here is refused.
set -euo pipefail
package=${1:?usage: kokkos_sources.sh kokkos|kokkos-kernels VERSION}
version=${2:?usage: kokkos_sources.sh kokkos|kokkos-kernels VERSION}
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${KOLLECTIVE_DEPS_DIR:-$root/.deps}
vendor=${KOLLECTIVE_KOKKOS_SOURCES:-$root/../shared/vendor}

# Known archives: "file sha256". The .tar.xz are git archives of the release tags; the .tar.gz
# are the files attached to the GitHub releases.
known="kokkos-4.6.01.tar.xz 6b32ef7d1007b5cc12b20d88a02cd463fd5cfdd3bc0d18650c505fadcb999c00
kokkos-kernels-4.6.01.tar.xz 5a5722d21f156fa6d4c66111606b8be3995ed10ddf46ea43e84290d7e9e83f9e
kokkos-4.6.01.tar.gz b9d70e4653b87a06dbb48d63291bf248058c7c7db4bd91979676ad5609bb1a3a
kokkos-kernels-4.6.01.tar.gz 95b9357f37ab3b9c3913c00741acb2501831c28ea8664de67818ae79c69c5908"

expected() { awk -v f="$1" '$1 == f {print $2}' <<<"$known"; }
checked() {  # checked PATH [NAME]: true when PATH's checksum is the one listed for NAME (its own)
  local name=${2:-$(basename "$1")} want
  want=$(expected "$name")
  [ -n "$want" ] || { echo "kokkos_sources: no checksum listed for $name" >&2; return 1; }
  [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$want" ] && return 0
  echo "kokkos_sources: $1 does not have the listed SHA-256 $want: refused" >&2
  return 1
}

for dir in "$vendor" "$deps/src"; do
  for ext in tar.xz tar.gz; do
    candidate=$dir/$package-$version.$ext
    if [ -f "$candidate" ]; then
      checked "$candidate" || exit 1
      echo "$candidate"
      exit 0
    fi
  done
done

file=$package-$version.tar.gz
url=https://github.com/kokkos/$package/releases/download/$version/$file
echo "kokkos_sources: $package $version not in $vendor or $deps/src; downloading $url" >&2
mkdir -p "$deps/src"
curl -fsSL --retry 2 -o "$deps/src/$file.part" "$url" \
  || { echo "kokkos_sources: download failed; put $package-$version.tar.xz or .tar.gz in $vendor (KOLLECTIVE_KOKKOS_SOURCES)" >&2; exit 1; }
checked "$deps/src/$file.part" "$file" || { rm -f "$deps/src/$file.part"; exit 1; }
mv "$deps/src/$file.part" "$deps/src/$file"
echo "$deps/src/$file"
