#!/usr/bin/env bash
# SpMV under each layout on a GPU machine: the tool-transformed scalar CSR
# kernel (bench/spmv_bench: CG's four matrix classes at 1x and 8x, L2 flushed at
# 8x, cuSPARSE CSR ALG1/ALG2 beside it) with IRREGFIX_LAYOUT=ell, sell32 and
# sell32s, and the runtime's own SpMV bench (uniform, 7-31 and 1-64 rows per
# row, with cuSPARSE).
#
#   OUT=/path/to/results bench/run_device_issue6.sh   (OUT defaults to ./bench-out-issue6)
#
# Transformed sources from IRREGFIX_REWRITTEN_DIR (default <repo>/.devgen).
# Environment: BUILD_DIR (default /tmp/b6), LAYOUTS (default "ell sell32 sell32s"),
#   SPMV_ARGS (extra spmv_bench arguments).
# Files under $OUT: build.log spmv.<layout>.md spmv.<layout>.log runtime_spmv.log summary.md
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-out-issue6}
B=${BUILD_DIR:-/tmp/b6}
REWRITTEN=${IRREGFIX_REWRITTEN_DIR:-$ROOT/.devgen}
LAYOUTS=${LAYOUTS:-ell sell32 sell32s}
mkdir -p "$OUT"
status=0

{
  nvidia-smi -L || true
  cmake -S "$ROOT" -B "$B" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_TESTS=OFF \
    -DIRREGFIX_BUILD_SAMPLES=OFF -DIRREGFIX_BUILD_BENCH=ON -DIRREGFIX_REWRITTEN_DIR="$REWRITTEN" &&
    cmake --build "$B" --target spmv_bench irregfix_spmv_bench
} >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; echo "BUILD FAILED"; exit 1; }
BENCH=$(find "$B" -name spmv_bench -type f -perm -u+x | head -1)

: >"$OUT/summary.md"
for layout in $LAYOUTS; do
  # shellcheck disable=SC2086
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=$layout "$BENCH" --md "$OUT/spmv.$layout.md" ${SPMV_ARGS:-} \
    >"$OUT/spmv.$layout.log" 2>&1 || { status=1; echo "spmv_bench ($layout): failed" >>"$OUT/summary.md"; }
  { echo "### IRREGFIX_LAYOUT=$layout"; echo; cat "$OUT/spmv.$layout.md" 2>/dev/null; echo; } >>"$OUT/summary.md"
done
"$B/runtime/irregfix_spmv_bench" >"$OUT/runtime_spmv.log" 2>&1 || status=1
{ echo "### runtime SpMV bench"; echo; echo '```'; cat "$OUT/runtime_spmv.log"; echo '```'; } >>"$OUT/summary.md"
cat "$OUT/summary.md"
exit $status
