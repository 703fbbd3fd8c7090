#!/usr/bin/env bash
# Fetch dependency sources from Debian's archive into .deps/src (no build).
# Kokkos + Kokkos Kernels 3.4.01 come from the trilinos 13.2.0 source package; yaml-cpp,
# googletest and benchmark sources are fetched too, for machines without Debian packages
# (the GPU machine). Uses a private apt sources list; the system configuration is untouched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${KOLLECTIVE_DEPS_DIR:-$root/.deps}
src=$deps/src
mkdir -p "$src" "$deps/apt/lists/partial" "$deps/apt/archives/partial"

packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(trilinos yaml-cpp googletest benchmark)

sources_list=$deps/apt/sources.list
echo "deb-src http://deb.debian.org/debian bookworm main" >"$sources_list"
apt_opts=(-o "Dir::Etc::SourceList=$sources_list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$deps/apt/lists" -o "Dir::Cache::Archives=$deps/apt/archives"
          -o APT::Sandbox::User=root)

have_all=1
for p in "${packages[@]}"; do [ -f "$src/$p.tar.xz" ] || have_all=0; done
if [ $have_all = 1 ]; then echo "fetch_deps: sources already in $src"; exit 0; fi

echo "fetch_deps: updating private source index"
apt-get "${apt_opts[@]}" update -qq
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for p in "${packages[@]}"; do
  [ -f "$src/$p.tar.xz" ] && continue
  echo "fetch_deps: fetching $p"
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only -qq "$p")
  orig=$(ls "$work"/${p}_*.orig.tar.* | head -n 1)
  mkdir -p "$work/x" "$work/y"
  case $p in
    trilinos)  # keep only Kokkos and Kokkos Kernels (~27 MB of ~166 MB)
      tar -xf "$orig" -C "$work/x" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
      mv "$work"/x/*/packages/kokkos "$work"/x/*/packages/kokkos-kernels "$work/y/";;
    *)         # one top folder named after the package
      tar -xf "$orig" -C "$work/x"
      mv "$work"/x/* "$work/y/$p";;
  esac
  tar -cJf "$src/$p.tar.xz" -C "$work/y" .
  rm -rf "${work:?}"/*
done
ls -la "$src"
