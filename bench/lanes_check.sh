#!/bin/sh
# The lanes layout's (warp-cooperative rows) checks on a GPU machine, in one command:
#   bench/lanes_check.sh [BUILD_DIR]      (default /tmp/irregfix-lanes)
# Builds, from the rewritten sources in .devgen/ (scripts/pregenerate.sh) where there is no Clang,
# the lanes GPU tests, the graph sample and CG; then runs
#   1. test/gpu/lanes_gpu_test.cu (irregfix_lanes_gpu_tests): every variant against the original;
#   2. graph_bit_identical under auto (profiling from the first launch) and under
#      IRREGFIX_LAYOUT=lanes, with IRREGFIX_VERIFY=1;
#   3. cg_reassociated's SpMV on long-rows under IRREGFIX_VERIFY=1 and IRREGFIX_STATS=1: the
#      largest relative difference of its reassociated sums from the original's.
# Exit 0 when all pass. The timings are bench/run.sh --parts lanes.
set -eu
cd "$(dirname "$0")/.."
build=${1:-/tmp/irregfix-lanes}
. bench/gpu_build.sh
gpu_build "$build" irregfix_lanes_gpu_tests graph graph_original cg cg_original cg_reassociated

echo "== 1. lanes GPU tests"
"$build/test/gpu/irregfix_lanes_gpu_tests"

for layout in auto lanes; do
  echo "== 2. graph bit for bit, IRREGFIX_LAYOUT=$layout, IRREGFIX_VERIFY=1"
  IRREGFIX_LAYOUT=$layout IRREGFIX_VERIFY=1 IRREGFIX_PROFILE_AFTER_MS=0 sh samples/compare.sh graph "$build/samples/graph/graph_original" \
    "$build/samples/graph/graph" "$build/lanes-check/graph-$layout"
done

echo "== 3. cg_reassociated on long-rows, IRREGFIX_VERIFY=1"
IRREGFIX_VERIFY=1 IRREGFIX_STATS=1 IRREGFIX_PROFILE_AFTER_MS=0 \
  "$build/samples/cg/cg_reassociated" --matrix long-rows --spmv 20 2>&1 |
  grep -e '^spmv: median' -e 'IRREGFIX_VERIFY' -e 'lanes:' -e 'selector:'
echo "lanes checks: all passed"
