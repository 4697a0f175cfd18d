#!/bin/sh
# Program-wide renumbering of a warp-a-row SpMV, on a GPU machine, in one command:
#   bench/warp_rows_check.sh [BUILD_DIR] [SCALE]     (defaults /tmp/irregfix-warp-rows, 8)
# Builds, from the rewritten sources in .devgen/ (scripts/pregenerate.sh) where there is no Clang,
# the domain GPU tests and CG; then runs
#   1. test/gpu/domain_gpu_test.cu (irregfix_domain_gpu_tests): every renumbering test, the warp-
#      and four-lanes-a-row SpMV bit for bit among them (LaneRowsDomainTest);
#   2. cg_bit_identical (samples/compare.sh cg): the renumbered grid also with --warp, solved and
#      as the SpMV alone;
#   3. the SpMV alone, `cg --spmv 200 --flush-l2` at SCALE on grid- and fem-shuffled, a thread a
#      row and a warp a row (--warp), original and rewritten (IRREGFIX_STATS=1: the domain's line).
# Exit 0 when 1 and 2 pass; 3 prints timings only.
set -eu
cd "$(dirname "$0")/.."
build=${1:-/tmp/irregfix-warp-rows}
scale=${2:-8}
. bench/gpu_build.sh
gpu_build "$build" irregfix_domain_gpu_tests cg cg_original

echo "== 1. domain GPU tests"
"$build/test/gpu/irregfix_domain_gpu_tests"

echo "== 2. cg bit for bit (with --warp among the inputs)"
sh samples/compare.sh cg "$build/samples/cg/cg_original" "$build/samples/cg/cg" "$build/warp-rows-check/cg"

echo "== 3. SpMV alone at ${scale}x, median of 200 launches, L2 flushed (ms)"
for class in grid-shuffled fem-shuffled; do
  for kernel in "" --warp; do
    for prog in cg_original cg; do
      # shellcheck disable=SC2086
      IRREGFIX_STATS=1 "$build/samples/cg/$prog" --matrix $class --scale "$scale" --spmv 200 --flush-l2 $kernel 2>&1 |
        sed -n -e "s/^spmv: median \([0-9.]*\) ms.*/$class ${kernel:---thread} $prog: \1/p" \
          -e "/program-wide renumbering\|ran renumbered/s/^/    $prog /p" -e 's/^\(checksum.*\)/    \1/p'
    done
  done
done
echo "warp rows checks: 1 and 2 passed"
