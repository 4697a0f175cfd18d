#!/usr/bin/env bash
# Everything that needs the GPU, in one run on the GPU machine (nvcc, no Clang):
# the runtime's GPU tests and remap benchmark, the rewritten e2e program
# (original vs transformed, bit for bit, and under compute-sanitizer), then the
# CG sample and the SpMV benchmark with Nsight Compute. Rewritten sources come
# from .devgen/ (scripts/pregenerate.sh). Logs go to $OUT.
#   PARTS="runtime e2e bench issue4" scripts/device-check.sh   (default: the first three)
# issue4: the samples under every IRREGFIX_LAYOUT mode (bench/run_device_issue4.sh);
# issue6: SpMV under each layout with cuSPARSE (bench/run_device_issue6.sh);
# sharing: MD under the sharing layout (bench/run_device_sharing.sh);
# hoist: the samples with --hoist, bit for bit, sanitizers, CG timings (bench/run_device_hoist.sh).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/device-out}
mkdir -p "$OUT"
export BUILD_DIR=${BUILD_DIR:-/tmp/b}
PARTS=${PARTS:-runtime e2e bench}
status=0

if [[ " $PARTS " == *" runtime "* ]]; then
  echo "=== runtime: GPU tests, memcheck, stats, remap bandwidth"
  runtime/bench/run_gpu_checks.sh 2>&1 | tee "$OUT/runtime.log" || status=1
fi

if [[ " $PARTS " == *" e2e "* ]]; then
  echo "=== e2e: the rewritten SpMV program, original vs transformed"
  lib=$BUILD_DIR/runtime/libirregfix_runtime.a
  [ -f "$lib" ] || cmake --build "$BUILD_DIR" --target irregfix_runtime >/dev/null
  nvcc -std=c++17 -arch=sm_90 -I runtime/include .devgen/spmv-main.irregfix.cu "$lib" -o /tmp/e2e &&
    IRREGFIX_DISABLE=1 /tmp/e2e /tmp/e2e.original.bin &&
    IRREGFIX_STATS=1 /tmp/e2e /tmp/e2e.irregfix.bin &&
    cmp /tmp/e2e.original.bin /tmp/e2e.irregfix.bin && echo "e2e: bit-identical (3 cached launches + 1 after a source change)" ||
    { echo "e2e: FAILED"; status=1; }
  if command -v compute-sanitizer >/dev/null; then
    compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/e2e /tmp/e2e.san.bin 2>&1 | tail -2 || status=1
    compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/e2e /tmp/e2e.san.bin 2>&1 | tail -2 || status=1
  fi
fi

if [[ " $PARTS " == *" bench "* ]]; then
  echo "=== CG sample, SpMV benchmark, Nsight Compute"
  OUT=$OUT BUILD_DIR=${BENCH_BUILD_DIR:-/tmp/bb} bench/run_device.sh || status=1
fi
if [[ " $PARTS " == *" issue4 "* ]]; then
  echo "=== samples under the selector, forced ELL and none; sanitizers; MD and CG timings"
  OUT=$OUT/issue4 BUILD_DIR=${ISSUE4_BUILD_DIR:-/tmp/b4} bench/run_device_issue4.sh || status=1
fi
if [[ " $PARTS " == *" issue6 "* ]]; then
  echo "=== SpMV under each layout (tool-transformed kernel, cuSPARSE beside it)"
  OUT=$OUT/issue6 BUILD_DIR=${ISSUE6_BUILD_DIR:-/tmp/b6} bench/run_device_issue6.sh || status=1
fi
if [[ " $PARTS " == *" sharing "* ]]; then
  echo "=== sharing layout: MD (and CG, SP) bit for bit, sanitizers, MD timings in every mode"
  OUT=$OUT/sharing BUILD_DIR=${SHARING_BUILD_DIR:-/tmp/bs} bench/run_device_sharing.sh || status=1
fi
if [[ " $PARTS " == *" hoist "* ]]; then
  echo "=== hoisted loops: samples bit for bit under several groups, sanitizers, CG hoisted vs in-kernel vs original"
  OUT=$OUT/hoist BUILD_DIR=${HOIST_INKERNEL_BUILD_DIR:-/tmp/bh} HOIST_BUILD_DIR=${HOIST_BUILD_DIR:-/tmp/bh-hoist} \
    bench/run_device_hoist.sh || status=1
fi
exit $status
