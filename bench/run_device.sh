#!/usr/bin/env bash
# Builds and runs the CG sample and the SpMV benchmark on a GPU machine, original
# vs irregfix-transformed, and writes logs and markdown tables under $OUT.
#
#   OUT=/path/to/results bench/run_device.sh        (from anywhere; OUT defaults to ./bench-out)
#
# The GPU machine has no Clang, so the transformed sources come from
# IRREGFIX_REWRITTEN_DIR (default: <repo>/.devgen), holding cg.irregfix.cu and
# spmv_kernel.irregfix.cu written by the irregfix tool elsewhere.
# Environment knobs:
#   BUILD_DIR (default /tmp/b), IRREGFIX_REWRITTEN_DIR, CMAKE_SOURCE (default: the repo),
#   IRREGFIX_CMAKE_ARGS (extra configure arguments), CG_SCALES (default "1 8"),
#   CG_ITERS (default 100), BENCH_ARGS (extra spmv_bench arguments), SKIP_NCU=1.
# Files written under $OUT: build.log cg.log cg.md spmv_bench.log spmv.md ncu.log summary.md
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-out}
B=${BUILD_DIR:-/tmp/b}
REWRITTEN=${IRREGFIX_REWRITTEN_DIR:-$ROOT/.devgen}
SRC=${CMAKE_SOURCE:-$ROOT}
CG_SCALES=${CG_SCALES:-1 8}
CG_ITERS=${CG_ITERS:-100}
CLASSES="grid fem apache offshore"
mkdir -p "$OUT"
SUMMARY=$OUT/summary.md
: >"$SUMMARY"
status=0

say() { echo "$*" | tee -a "$SUMMARY"; }

# --- build -------------------------------------------------------------------
{
  nvidia-smi -L || true
  # shellcheck disable=SC2086
  cmake -S "$SRC" -B "$B" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_TESTS=OFF \
    -DIRREGFIX_BUILD_BENCH=ON -DIRREGFIX_REWRITTEN_DIR="$REWRITTEN" ${IRREGFIX_CMAKE_ARGS:-} &&
    cmake --build "$B" --target cg_original cg spmv_bench
} >"$OUT/build.log" 2>&1
# shellcheck disable=SC2181
if [ $? -ne 0 ]; then
  tail -40 "$OUT/build.log"
  say "BUILD FAILED (see build.log)"
  exit 1
fi
CG_DIR=$(dirname "$(find "$B" -name cg_original -type f -perm -u+x | head -1)")
BENCH=$(find "$B" -name spmv_bench -type f -perm -u+x | head -1)

# --- CG: original vs transformed ------------------------------------------------
CG_MD=$OUT/cg.md
{
  echo "CG, $CG_ITERS iterations, whole solve time (CUDA events, remap included), milliseconds."
  echo
  echo "| matrix | rows | nnz | iterations | residual | original ms | irregfix ms | speedup | bitwise identical |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$CG_MD"
: >"$OUT/cg.log"
field() { sed -n "s/^$1: *//p" "$2" | head -1; }
for scale in $CG_SCALES; do
  for cls in $CLASSES; do
    o=/tmp/cg.$cls.$scale.original
    t=/tmp/cg.$cls.$scale.irregfix
    "$CG_DIR/cg_original" --matrix "$cls" --scale "$scale" --iters "$CG_ITERS" --seed 1 --dump "$o.bin" >"$o.log" 2>&1
    rc1=$?
    IRREGFIX_STATS=1 "$CG_DIR/cg" --matrix "$cls" --scale "$scale" --iters "$CG_ITERS" --seed 1 --dump "$t.bin" >"$t.log" 2>&1
    rc2=$?
    { echo "== $cls ${scale}x original (exit $rc1)"; cat "$o.log"; echo "== $cls ${scale}x irregfix (exit $rc2)"; cat "$t.log"; } >>"$OUT/cg.log"
    same=no
    if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$o.bin" "$t.bin"; then same=yes; else status=1; fi
    rows=$(sed -n 's/^rows: *\([0-9]*\).*/\1/p' "$o.log")
    nnz=$(sed -n 's/.*nnz: *\([0-9]*\).*/\1/p' "$o.log" | head -1)
    its=$(field iterations "$o.log")
    res=$(field residual "$o.log" | cut -d' ' -f1)
    ms1=$(field "solve time" "$o.log" | cut -d' ' -f1)
    ms2=$(field "solve time" "$t.log" | cut -d' ' -f1)
    sp=$(awk -v a="$ms1" -v b="$ms2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
    echo "| $cls ${scale}x | $rows | $nnz | $its | $res | $ms1 | $ms2 | $sp | $same |" >>"$CG_MD"
  done
done
# The CTest test's own script, on small matrices.
sh "$ROOT/samples/compare.sh" cg "$CG_DIR/cg_original" "$CG_DIR/cg" /tmp/cg_bit_identical >>"$OUT/cg.log" 2>&1
rc=$?
echo "compare.sh (cg_bit_identical test script): exit $rc" >>"$OUT/cg.log"
[ $rc -eq 0 ] || status=1

# --- SpMV benchmark -------------------------------------------------------------
# shellcheck disable=SC2086
# The transformed column times the transformed kernel: the selector (auto) might run the original.
IRREGFIX_LAYOUT=${IRREGFIX_LAYOUT:-ell} "$BENCH" --md "$OUT/spmv.md" ${BENCH_ARGS:-} >"$OUT/spmv_bench.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { status=1; echo "spmv_bench: exit $rc" >>"$OUT/spmv_bench.log"; }

# --- Nsight Compute: global load sectors, original vs transformed ---------------
NCU_MD=/tmp/ncu.md
: >"$NCU_MD"
if [ "${SKIP_NCU:-0}" != 1 ]; then
  NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  : >"$OUT/ncu.log"
  {
    echo "Global load sectors (ncu l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum), last launch of each kernel."
    echo
    echo "| matrix | kernel | sectors |"
    echo "|---|---|---:|"
  } >"$NCU_MD"
  for spec in "grid 1" "offshore 1"; do
    # shellcheck disable=SC2086
    set -- $spec
    csv=/tmp/ncu.$1.$2.csv
    "$NCU" --clock-control none --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
      --kernel-name regex:spmv --csv "$BENCH" --profile "$1" "$2" >"$csv" 2>>"$OUT/ncu.log"
    rc=$?
    { echo "== $1 ${2}x (exit $rc)"; cat "$csv"; } >>"$OUT/ncu.log"
    # CSV columns: ... "Kernel Name" (5th) ... "Metric Value" (last).
    grep '^"[0-9]' "$csv" | awk -F'","' -v m="$1 ${2}x" '
      { name = $5; sub(/\(.*/, "", name); v = $NF; gsub(/[",]/, "", v); last[name] = v }
      END { for (k in last) printf "| %s | %s | %s |\n", m, k, last[k] }' | sort >>"$NCU_MD"
  done
fi

# --- summary ---------------------------------------------------------------------
{
  echo "# irregfix device run"
  echo
  nvidia-smi -L 2>/dev/null | head -1
  echo
  cat "$CG_MD"
  echo
  tail -3 "$OUT/cg.log"
  echo
  [ -f "$OUT/spmv.md" ] && cat "$OUT/spmv.md"
  echo
  cat "$NCU_MD"
  echo
  if [ $status -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "SOME CHECKS FAILED (see cg.log, spmv_bench.log)"; fi
} >"$SUMMARY"
cat "$SUMMARY"
exit $status
