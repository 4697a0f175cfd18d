#!/usr/bin/env bash
# CTest irregfix_cmake_consumer: installs irregfix into a temporary prefix,
# then configures and builds test/cmake (find_package + irregfix_transform)
# with each generator given, checks the rewritten file, and checks that
# touching an included header re-runs irregfix and a no-op build does not.
# Also finds the package from the build tree (export()), and builds with the
# installed irregfix-nvcc: directly, and as the launcher of a plain CUDA
# project (test/cmake-launcher).
#   run.sh <irregfix build dir> <work dir> <nvcc or empty> <generator>...
# Exit 77 (skipped) without nvcc.
set -euo pipefail
build=$1 work=$2 nvcc=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "irregfix_cmake_consumer: no nvcc; skipped"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/irregfix bin/irregfix-nvcc lib/irregfix/include/texture_fetch_functions.h include/irregfix/irregfix.cuh \
         lib/cmake/irregfix/irregfixConfig.cmake lib/cmake/irregfix/irregfixConfigVersion.cmake \
         lib/cmake/irregfix/irregfixTransform.cmake; do
  [ -e "$prefix/$f" ] || { echo "FAIL: the install has no $f"; exit 1; }
done
ls "$prefix"/lib/libirregfix_runtime.a > /dev/null

mtime() { stat -c %Y.%y "$1"; }

check() { # <name> <generator> <cmake args...>
  local name=$1 gen=$2
  shift 2
  local b="$work/$name"
  echo "== $name: $gen $*"
  cmake -S "$here" -B "$b" -G "$gen" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCMAKE_BUILD_TYPE=Release "$@" > "$b.configure.log" 2>&1 ||
    { cat "$b.configure.log"; echo "FAIL: configure ($name)"; exit 1; }
  cmake --build "$b" > "$b.build1.log" 2>&1 || { cat "$b.build1.log"; echo "FAIL: build ($name)"; exit 1; }
  local out="$b/irregfix/main.irregfix.cu"
  grep -q "__global__ void spmv_csr_irregfix(" "$out" || { echo "FAIL: $out has no transformed kernel"; exit 1; }
  grep -q "spmv_csr_irregfix_launch(" "$out" || { echo "FAIL: $out has no rewritten launch"; exit 1; }
  grep -q "irregfix main.cu" "$b.build1.log" || { echo "FAIL: the first build did not run irregfix"; exit 1; }
  [ -x "$b/consumer" ] || { echo "FAIL: no consumer executable"; exit 1; }

  # Nothing changed: irregfix does not run.
  cmake --build "$b" > "$b.build2.log" 2>&1
  if grep -q "irregfix main.cu" "$b.build2.log"; then
    cat "$b.build2.log"; echo "FAIL: a no-op build re-ran irregfix ($name)"; exit 1
  fi

  # The header changed: irregfix runs again and rewrites the file.
  local before
  before=$(mtime "$out")
  sleep 1
  touch "$here/include/spmv.cuh"
  cmake --build "$b" > "$b.build3.log" 2>&1 || { cat "$b.build3.log"; echo "FAIL: rebuild ($name)"; exit 1; }
  if ! grep -q "irregfix main.cu" "$b.build3.log" || [ "$(mtime "$out")" = "$before" ]; then
    cat "$b.build3.log"; echo "FAIL: touching include/spmv.cuh did not re-run irregfix ($name)"; exit 1
  fi
  echo "ok: $name: transformed, no-op build quiet, header change re-ran irregfix"
}

for gen in "$@"; do
  tag=${gen// /_}
  check "installed-$tag" "$gen" -DCMAKE_PREFIX_PATH="$prefix"
done
# From the build tree, without installing.
check "build-tree" "${1}" -Dirregfix_DIR="$build"
# The installed drop-in for nvcc finds the tool and the runtime in the prefix.
export IRREGFIX_NVCC_CACHE_DIR="$work/nvcc-cache" IRREGFIX_NVCC_VERBOSE=1
echo "== irregfix-nvcc, installed"
IRREGFIX_NVCC_REAL="$nvcc" "$prefix/bin/irregfix-nvcc" -arch=sm_90 -I "$here/include" -DCONSUMER_SCALE=2.0f \
  "$here/main.cu" -o "$work/direct" > "$work/direct.log" 2>&1 || { cat "$work/direct.log"; echo "FAIL: irregfix-nvcc"; exit 1; }
grep -q "main.cu: rewritten" "$work/direct.log" || { cat "$work/direct.log"; echo "FAIL: irregfix-nvcc rewrote nothing"; exit 1; }
nm -C "$work/direct" | grep -c "irregfix::prepare_range(" > /dev/null || { echo "FAIL: irregfix-nvcc did not link the runtime"; exit 1; }
echo "== irregfix-nvcc as CMAKE_CUDA_COMPILER_LAUNCHER ($1)"
b="$work/launcher"
cmake -S "$here/../cmake-launcher" -B "$b" -G "$1" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCMAKE_CUDA_COMPILER_LAUNCHER="$prefix/bin/irregfix-nvcc" \
      -DCMAKE_CUDA_STANDARD_LIBRARIES="$prefix/lib/libirregfix_runtime.a -ldl" > "$b.configure.log" 2>&1 ||
  { cat "$b.configure.log"; echo "FAIL: configure (launcher)"; exit 1; }
cmake --build "$b" > "$b.build.log" 2>&1 || { cat "$b.build.log"; echo "FAIL: build (launcher)"; exit 1; }
grep -q "main.cu: rewritten" "$b.build.log" || { cat "$b.build.log"; echo "FAIL: the launcher rewrote nothing"; exit 1; }
nm -C "$b/plain" | grep -c "irregfix::prepare_range(" > /dev/null || { echo "FAIL: the launcher build has no runtime"; exit 1; }
echo "ok: irregfix-nvcc, directly and as a launcher"
echo "irregfix_cmake_consumer: passed"
