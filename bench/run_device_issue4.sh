#!/usr/bin/env bash
# The selector and the launch protocol on a GPU machine: the CG, SP and MD
# samples under IRREGFIX_LAYOUT=auto (the selector), ell (always transformed),
# sell32s (SELL-32-sigma for permutable kernels) and none (always the original),
# bit for bit against the original programs, under compute-sanitizer, and timed.
#
#   OUT=/path/to/results bench/run_device_issue4.sh   (OUT defaults to ./bench-out-issue4)
#
# Transformed sources come from IRREGFIX_REWRITTEN_DIR (default <repo>/.devgen,
# written by scripts/pregenerate.sh on a machine with Clang 19).
# Environment: BUILD_DIR (default /tmp/b4), MD_SIZES (default "12288 73728 262144"),
#   MD_STEPS (default 100), CG_CLASSES (default "grid fem apache offshore"), CG_ITERS (default 200),
#   SKIP_SANITIZER=1, SANITIZER_MODES (default "auto ell sell32s"),
#   SECTIONS (default "compare sanitizer md pipeline cg"), PIPE_CHUNKS (default "1 auto 4 8").
# Files under $OUT: build.log compare.log sanitizer.log md.log cg.log md.md pipeline.md cg.md summary.md
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-out-issue4}
B=${BUILD_DIR:-/tmp/b4}
REWRITTEN=${IRREGFIX_REWRITTEN_DIR:-$ROOT/.devgen}
MD_SIZES=${MD_SIZES:-12288 73728 262144}
MD_STEPS=${MD_STEPS:-100}
CG_CLASSES=${CG_CLASSES:-grid fem apache offshore}
CG_ITERS=${CG_ITERS:-200}
TMP=${TMPDIR:-/tmp}/irregfix-issue4
MODES="auto ell sell32s none"
SECTIONS=${SECTIONS:-compare sanitizer md pipeline cg}
PIPE_CHUNKS=${PIPE_CHUNKS:-1 auto 4 8}
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

# --- bit for bit, every mode ----------------------------------------------------
: >"$OUT/compare.log"
want compare && for mode in $MODES; do
  for name in cg sp md; do
    IRREGFIX_LAYOUT=$mode sh "$ROOT/samples/compare.sh" "$name" "$S/$name/${name}_original" "$S/$name/$name" \
      "$TMP/cmp.$name.$mode" >>"$OUT/compare.log" 2>&1
    rc=$?
    echo "compare $name IRREGFIX_LAYOUT=$mode: exit $rc" | tee -a "$OUT/compare.log"
    [ $rc -eq 0 ] || status=1
  done
done

# --- compute-sanitizer on the samples, every mode -------------------------------
if want sanitizer && [ -z "${SKIP_SANITIZER:-}" ] && command -v compute-sanitizer >/dev/null; then
  : >"$OUT/sanitizer.log"
  for mode in ${SANITIZER_MODES:-auto ell sell32s}; do
    for tool in memcheck racecheck; do
      for run in "cg/cg --matrix offshore --rows 20000 --iters 20" "md/md --atoms 4096 --steps 12 --rebuild 3" \
        "sp/sp --vars 2000 --clauses 8400 --rounds 20"; do
        # shellcheck disable=SC2086
        IRREGFIX_LAYOUT=$mode compute-sanitizer --tool $tool --error-exitcode 9 $S/$run >"$TMP/san.log" 2>&1
        rc=$?
        echo "$tool IRREGFIX_LAYOUT=$mode $run: exit $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$TMP/san.log" | head -1)" |
          tee -a "$OUT/sanitizer.log"
        [ $rc -eq 0 ] || { status=1; tail -30 "$TMP/san.log" >>"$OUT/sanitizer.log"; }
      done
    done
  done
fi

per_step() { sed -n 's/.*(\([0-9.]*\) ms per \(step\|iteration\))/\1/p' "$1" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }'; }
choice() { grep -m1 'selector:' "$1" | sed 's/^irregfix: *selector: //; s/|/\//g' | cut -c1-110; }

# --- MD: whole steps, the remap due every step ------------------------------------
{
  echo "MD, $MD_STEPS steps, neighbour list rebuilt every 5 steps, positions change every step (a remap every step"
  echo "for the transformed kernel). ms per step (CUDA events around the step loop); speedups vs the original."
  echo
  echo "| atoms | order | original | ell (always transformed) | auto (selector) | none | ell speedup | auto speedup | selector |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---|"
} >"$OUT/md.md"
: >"$OUT/md.log"
want md && for atoms in $MD_SIZES; do
  for order in random sorted; do
    flag=""
    [ "$order" = sorted ] && flag=--sorted
    # shellcheck disable=SC2086
    "$S/md/md_original" --atoms "$atoms" --steps "$MD_STEPS" $flag >"$TMP/md.o" 2>&1
    for mode in $MODES; do
      # shellcheck disable=SC2086
      IRREGFIX_STATS=1 IRREGFIX_LAYOUT=$mode "$S/md/md" --atoms "$atoms" --steps "$MD_STEPS" $flag >"$TMP/md.$mode" 2>&1
    done
    for f in o auto ell sell32s none; do { echo "== md $atoms $order $f"; cat "$TMP/md.$f"; } >>"$OUT/md.log"; done
    o=$(per_step "$TMP/md.o") e=$(per_step "$TMP/md.ell") a=$(per_step "$TMP/md.auto") n=$(per_step "$TMP/md.none")
    echo "| $atoms | $order | $o | $e | $a | $n | $(ratio "$o" "$e") | $(ratio "$o" "$a") | $(choice "$TMP/md.auto") |" >>"$OUT/md.md"
  done
done

# --- MD pipelined: the remap of chunk c+1 beside the kernel of chunk c ---------------
# Forced ELL (a remap every step), IRREGFIX_CHUNKS 1 (remap, then kernel) against
# the model's count and fixed counts; the stats say how much of the remap was hidden.
hidden() { sed -n 's/.*pipelined launches \([0-9]*\) (latest in \([0-9]*\) chunks).* \(([0-9]*%)\) hidden.*/\2 chunks, \3 hidden/p' "$1" | head -1; }
{
  echo "MD, $MD_STEPS steps, IRREGFIX_LAYOUT=ell (a remap every step), random order. ms per step; the remap"
  echo "hidden behind the kernel, from IRREGFIX_STATS (CUDA events on both streams)."
  echo
  echo "| atoms | original | chunks=1 | $(echo $PIPE_CHUNKS | cut -d' ' -f2- | sed 's/\([^ ]*\)/chunks=\1/g; s/ / | /g') | pipelining, per count |"
  echo "|---:|---:|---:|$(for c in $PIPE_CHUNKS; do [ "$c" = 1 ] || printf -- '---:|'; done)---|"
} >"$OUT/pipeline.md"
want pipeline && for atoms in $MD_SIZES; do
  "$S/md/md_original" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/pipe.o" 2>&1
  row="| $atoms | $(per_step "$TMP/pipe.o")"
  notes=""
  for c in $PIPE_CHUNKS; do
    IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell IRREGFIX_CHUNKS=$c "$S/md/md" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/pipe.$c" 2>&1
    { echo "== md pipeline $atoms chunks=$c"; cat "$TMP/pipe.$c"; } >>"$OUT/md.log"
    row="$row | $(per_step "$TMP/pipe.$c")"
    [ "$c" = 1 ] || notes="$notes $c: $(hidden "$TMP/pipe.$c");"
  done
  echo "$row |$notes |" >>"$OUT/pipeline.md"
done

# --- CG: the matrix never changes --------------------------------------------------
{
  echo "CG, $CG_ITERS iterations, paper size (scale 1) and 8x. ms per iteration (whole solve / iterations,"
  echo "the one-time remap and module loads included); speedups vs the original."
  echo
  echo "| matrix | scale | original | ell | sell32s | auto (selector) | none | ell speedup | sell32s speedup | auto speedup | selector |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$OUT/cg.md"
: >"$OUT/cg.log"
want cg && for m in $CG_CLASSES; do
  for scale in 1 8; do
    "$S/cg/cg_original" --matrix "$m" --scale "$scale" --iters "$CG_ITERS" >"$TMP/cg.o" 2>&1
    for mode in $MODES; do
      IRREGFIX_STATS=1 IRREGFIX_LAYOUT=$mode "$S/cg/cg" --matrix "$m" --scale "$scale" --iters "$CG_ITERS" >"$TMP/cg.$mode" 2>&1
    done
    for f in o auto ell sell32s none; do { echo "== cg $m $scale $f"; cat "$TMP/cg.$f"; } >>"$OUT/cg.log"; done
    o=$(per_step "$TMP/cg.o") e=$(per_step "$TMP/cg.ell") a=$(per_step "$TMP/cg.auto") n=$(per_step "$TMP/cg.none")
    g=$(per_step "$TMP/cg.sell32s")
    echo "| $m | $scale | $o | $e | $g | $a | $n | $(ratio "$o" "$e") | $(ratio "$o" "$g") | $(ratio "$o" "$a") | $(choice "$TMP/cg.auto") |" >>"$OUT/cg.md"
  done
done

{
  cat "$OUT/md.md"
  echo
  cat "$OUT/pipeline.md"
  echo
  cat "$OUT/cg.md"
  echo
  grep -c 'exit 0' "$OUT/compare.log" | sed 's/^/compare runs passed: /'
  [ -f "$OUT/sanitizer.log" ] && grep -c 'exit 0' "$OUT/sanitizer.log" | sed 's/^/sanitizer runs clean: /'
  if [ $status -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "SOME CHECKS FAILED"; fi
} >"$OUT/summary.md"
cat "$OUT/summary.md"
exit $status
