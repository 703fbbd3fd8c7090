#!/usr/bin/env bash
# Build and install patched Kokkos + Kokkos Kernels 4.6.01 for one backend into a cache keyed by
# version, patch, backend and (for serial-clang) compiler; prints the install prefix on the last
# line of stdout.
#   scripts/bootstrap_kokkos.sh openmp|serial|cuda|serial-clang
# serial-clang is the Serial backend built with clang++ for the fuzz build (scripts/fuzz.sh).
# Sources (scripts/kokkos_sources.sh finds or downloads them, checksums checked): the release
# archives in KOLLECTIVE_KOKKOS_SOURCES (default ../shared/vendor beside the checkout, then
# .deps/src), else the official release downloads.
# Env: KOLLECTIVE_DEPS_DIR (default .deps), KOLLECTIVE_CUDA_ARCH (Kokkos arch name, default
# HOPPER90), KOLLECTIVE_CLANG_CXX (default clang++), KOLLECTIVE_JOBS (default: all cores).
set -euo pipefail
backend=${1:?usage: bootstrap_kokkos.sh openmp|serial|cuda|serial-clang}
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${KOLLECTIVE_DEPS_DIR:-$root/.deps}
jobs=${KOLLECTIVE_JOBS:-$(nproc)}
arch=${KOLLECTIVE_CUDA_ARCH:-HOPPER90}
version=4.6.01
patch=$root/scripts/kokkos-$version-cuda13.patch
patch_id=$(sha256sum "$patch" | cut -c1-8)

case $backend in
  openmp) options=(-DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON); key=openmp;;
  serial) options=(-DKokkos_ENABLE_SERIAL=ON); key=serial;;
  # cuda: OpenMP is the host space, so host work beside the GPU (Kemeny's LP and memetic search)
  # has the machine's cores, not Serial's one thread.
  cuda)   options=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_$arch=ON)
          key=cuda-openmp-$arch;;
  serial-clang)
    clang_cxx=$(command -v "${KOLLECTIVE_CLANG_CXX:-clang++}") \
      || { echo "bootstrap_kokkos: ${KOLLECTIVE_CLANG_CXX:-clang++} not found" >&2; exit 1; }
    clang_major=$("$clang_cxx" -dumpversion | cut -d. -f1)
    options=(-DKokkos_ENABLE_SERIAL=ON); key=serial-clang$clang_major;;
  *) echo "bootstrap_kokkos: unknown backend '$backend' (openmp, serial, cuda or serial-clang)" >&2; exit 2;;
esac
# "pic": position-independent code, so the Python extension (a shared library) can link it too.
prefix=$deps/install/kokkos-$version-$patch_id-$key-pic
if [ -f "$prefix/.complete" ]; then echo "$prefix"; exit 0; fi

build=$deps/build/kokkos-$key
rm -rf "$build" "$prefix"; mkdir -p "$build/kokkos" "$build/kokkos-kernels"
for package in kokkos kokkos-kernels; do
  archive=$("$root/scripts/kokkos_sources.sh" "$package" "$version" | tail -n 1)
  tar -xf "$archive" -C "$build/$package" --strip-components=1
done
(cd "$build/kokkos" && patch -p1 -s <"$patch")

compiler=()
if [ "$backend" = cuda ]; then compiler=(-DCMAKE_CXX_COMPILER="$build/kokkos/bin/nvcc_wrapper"); fi
if [ "$backend" = serial-clang ]; then compiler=(-DCMAKE_CXX_COMPILER="$clang_cxx"); fi
common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17 -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
echo "bootstrap_kokkos: building Kokkos $version ($key) in $build" >&2
cmake -S "$build/kokkos" -B "$build/kokkos-build" "${common[@]}" "${compiler[@]}" "${options[@]}" \
      -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF >"$build/kokkos-configure.log" 2>&1 \
  || { tail -n 40 "$build/kokkos-configure.log" >&2; exit 1; }
cmake --build "$build/kokkos-build" -j "$jobs" >"$build/kokkos-build.log" 2>&1 \
  || { tail -n 40 "$build/kokkos-build.log" >&2; exit 1; }
cmake --install "$build/kokkos-build" >/dev/null

# Kokkos Kernels: no ETI (header-only use, builds in seconds) and no vendor TPLs: Kollective
# calls only its BLAS 1/2 kernels on host and device Views.
echo "bootstrap_kokkos: building Kokkos Kernels $version ($key)" >&2
kk_compiler=("${compiler[@]}")
if [ "$backend" = cuda ]; then kk_compiler=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper"); fi
cmake -S "$build/kokkos-kernels" -B "$build/kernels-build" "${common[@]}" "${kk_compiler[@]}" \
      -DKokkos_ROOT="$prefix" -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
      -DKokkosKernels_ENABLE_PERFTESTS=OFF -DKokkosKernels_ENABLE_BENCHMARK=OFF \
      -DKokkosKernels_ENABLE_ALL_COMPONENTS=OFF -DKokkosKernels_ENABLE_COMPONENT_BLAS=ON \
      -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF \
      -DKokkosKernels_ENABLE_TPL_CUSOLVER=OFF \
      -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_LAPACK=OFF \
      -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
      -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF \
      -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
      -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
      -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF \
      >"$build/kernels-configure.log" 2>&1 \
  || { tail -n 40 "$build/kernels-configure.log" >&2; exit 1; }
cmake --build "$build/kernels-build" -j "$jobs" >"$build/kernels-build.log" 2>&1 \
  || { tail -n 40 "$build/kernels-build.log" >&2; exit 1; }
cmake --install "$build/kernels-build" >/dev/null
rm -rf "$build"
touch "$prefix/.complete"
echo "$prefix"
