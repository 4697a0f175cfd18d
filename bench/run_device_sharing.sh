#!/usr/bin/env bash
# The sharing layout on a GPU machine: the MD sample (and CG, SP, where it does
# not apply) under IRREGFIX_LAYOUT=sharing and auto, bit for bit against the
# original programs; MD under compute-sanitizer (memcheck, racecheck: the stage
# is written by the block and read after a barrier; synccheck); MD timed in
# every mode, atoms numbered at random or cell by cell, the list rebuilt every
# 5 or 25 steps (the copy's shape changes with the list; positions change
# every step, which a sharing copy refreshes by a gather of its distinct
# elements only).
#
#   OUT=/path/to/results bench/run_device_sharing.sh
#
# Environment: BUILD_DIR (default /tmp/bs), MD_SIZES (default "262144 1048576"), MD_STEPS (100),
#   REBUILDS (default "5 25"), SECTIONS (default "compare sanitizer md").
# Files under $OUT: build.log compare.log sanitizer.log md.log md.md summary.md
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-out-sharing}
B=${BUILD_DIR:-/tmp/bs}
REWRITTEN=${IRREGFIX_REWRITTEN_DIR:-$ROOT/.devgen}
MD_SIZES=${MD_SIZES:-262144 1048576}
MD_STEPS=${MD_STEPS:-100}
REBUILDS=${REBUILDS:-5 25}
SECTIONS=${SECTIONS:-compare sanitizer md}
TMP=${TMPDIR:-/tmp}/irregfix-sharing
MODES="ell sharing auto"
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
mkdir -p "$OUT" "$TMP"
status=0

{
  nvidia-smi -L || true
  cmake -S "$ROOT" -B "$B" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_TESTS=OFF \
    -DIRREGFIX_REWRITTEN_DIR="$REWRITTEN" &&
    cmake --build "$B" --target cg_original cg sp_original sp md_original md
} >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; echo "BUILD FAILED"; exit 1; }
S=$B/samples

: >"$OUT/compare.log"
want compare && for mode in sharing auto; do
  for name in md cg sp; do
    IRREGFIX_STATS=1 IRREGFIX_LAYOUT=$mode sh "$ROOT/samples/compare.sh" "$name" "$S/$name/${name}_original" \
      "$S/$name/$name" "$TMP/cmp.$name.$mode" >>"$OUT/compare.log" 2>&1
    rc=$?
    echo "compare $name IRREGFIX_LAYOUT=$mode: exit $rc" | tee -a "$OUT/compare.log"
    [ $rc -eq 0 ] || status=1
  done
done

if want sanitizer && command -v compute-sanitizer >/dev/null; then
  : >"$OUT/sanitizer.log"
  for tool in memcheck racecheck synccheck; do
    for run in "md/md --atoms 8192 --steps 12 --rebuild 3 --sorted" "md/md --atoms 8192 --steps 6 --rebuild 2"; do
      # shellcheck disable=SC2086
      IRREGFIX_STATS=1 IRREGFIX_LAYOUT=sharing compute-sanitizer --tool $tool --error-exitcode 9 $S/$run >"$TMP/san.log" 2>&1
      rc=$?
      echo "$tool IRREGFIX_LAYOUT=sharing $run: exit $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$TMP/san.log" | head -1), $(grep -m1 -o 'layout [a-z0-9-]*' "$TMP/san.log")" |
        tee -a "$OUT/sanitizer.log"
      [ $rc -eq 0 ] || { status=1; tail -30 "$TMP/san.log" >>"$OUT/sanitizer.log"; }
    done
  done
fi

per_step() { sed -n 's/.*(\([0-9.]*\) ms per step)/\1/p' "$1" | head -1; }
kernel() { sed -n 's/.*lj_forces.*median \([0-9.]*\) ms.*/\1/p' "$1" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }'; }
choice() { grep -m1 'selector:' "$1" | sed 's/^irregfix: *selector: //; s/|/\//g' | cut -c1-140; }
fallback() { grep -m1 -o 'fallback[^;]*' "$1" | cut -c1-100; }
{
  echo "MD, $MD_STEPS steps, positions changed every step. ms per step (CUDA events around the step loop),"
  echo "and the median lj_forces launch (--time-kernels: the launcher, remap included); speedups vs the original."
  echo
  echo "| atoms | order | rebuild | original | ell | sharing | auto | sharing speedup | auto speedup | lj_forces orig / ell / sharing (ms) | selector (auto) |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
} >"$OUT/md.md"
: >"$OUT/md.log"
want md && for atoms in $MD_SIZES; do
  for order in random sorted; do
    flag=""
    [ "$order" = sorted ] && flag=--sorted
    for rb in $REBUILDS; do
      # shellcheck disable=SC2086
      "$S/md/md_original" --atoms "$atoms" --steps "$MD_STEPS" --rebuild "$rb" --time-kernels $flag >"$TMP/md.o" 2>&1
      for mode in $MODES; do
        # shellcheck disable=SC2086
        IRREGFIX_STATS=1 IRREGFIX_LAYOUT=$mode "$S/md/md" --atoms "$atoms" --steps "$MD_STEPS" --rebuild "$rb" \
          --time-kernels $flag >"$TMP/md.$mode" 2>&1
      done
      for f in o $MODES; do { echo "== md $atoms $order rebuild $rb $f"; cat "$TMP/md.$f"; } >>"$OUT/md.log"; done
      o=$(per_step "$TMP/md.o") e=$(per_step "$TMP/md.ell") s=$(per_step "$TMP/md.sharing") a=$(per_step "$TMP/md.auto")
      echo "| $atoms | $order | $rb | $o | $e | $s | $a | $(ratio "$o" "$s") | $(ratio "$o" "$a") |" \
        "$(kernel "$TMP/md.o") / $(kernel "$TMP/md.ell") / $(kernel "$TMP/md.sharing") | $(choice "$TMP/md.auto") |" >>"$OUT/md.md"
    done
  done
done

{
  cat "$OUT/md.md"
  echo
  grep -c 'exit 0' "$OUT/compare.log" | sed 's/^/compare runs passed: /'
  [ -f "$OUT/sanitizer.log" ] && grep -c 'exit 0' "$OUT/sanitizer.log" | sed 's/^/sanitizer runs clean: /'
  if [ $status -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "SOME CHECKS FAILED"; fi
} >"$OUT/summary.md"
cat "$OUT/summary.md"
exit $status
