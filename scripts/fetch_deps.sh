#!/usr/bin/env bash
# Fetch the yaml-cpp, googletest and benchmark sources from Debian's archive into .deps/src (no
# build), for machines without Debian packages (the GPU machine). Uses a private apt sources
# list; the system configuration is untouched. Kokkos comes from scripts/kokkos_sources.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${KOLLECTIVE_DEPS_DIR:-$root/.deps}
src=$deps/src
mkdir -p "$src" "$deps/apt/lists/partial" "$deps/apt/archives/partial"

packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(yaml-cpp googletest benchmark)

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
  tar -xf "$orig" -C "$work/x"  # one top folder, renamed after the package
  mv "$work"/x/* "$work/y/$p"
  tar -cJf "$src/$p.tar.xz" -C "$work/y" .
  rm -rf "${work:?}"/*
done
ls -la "$src"
