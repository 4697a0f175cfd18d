#!/usr/bin/env bash
# Hoisted loops (--hoist) on a GPU machine: the CG, SP and MD samples rewritten
# with --hoist, bit for bit against the original programs under several
# IRREGFIX_HOIST_GROUP values and layouts (hoisting the launches that remap, the
# default, and every launch, IRREGFIX_HOIST_ALWAYS=1), under compute-sanitizer
# (memcheck, racecheck); MD with a remap every step timed: original, in-kernel
# loop, pipelined chunks, hoisted (the remap in slices beside the steps); CG
# timed: hoisted vs the in-kernel loop vs the original, median of several runs.
#
#   OUT=/path/to/results bench/run_device_hoist.sh   (OUT defaults to ./bench-out-hoist)
#
# Rewritten sources come from IRREGFIX_REWRITTEN_DIR (default <repo>/.devgen, written by
# scripts/pregenerate.sh on a machine with Clang 19): <s>.irregfix.cu (in-kernel loop) and
# <s>.hoist.irregfix.cu (hoisted) for s in cg, sp, md.
# Environment: BUILD_DIR (in-kernel build, default /tmp/bh), HOIST_BUILD_DIR (default /tmp/bh-hoist),
#   CG_CLASSES (default "grid fem apache offshore"), CG_ITERS (default 200), RUNS (default 5),
#   MD_SIZES (default "262144 1048576"), MD_STEPS (default 100), SKIP_SANITIZER=1,
#   SECTIONS (default "stats compare sanitizer md cg").
# Files under $OUT: build.log compare.log stats.log sanitizer.log md.log md.md cg.log cg.md summary.md
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-out-hoist}
B=${BUILD_DIR:-/tmp/bh}
BH=${HOIST_BUILD_DIR:-/tmp/bh-hoist}
REWRITTEN=${IRREGFIX_REWRITTEN_DIR:-$ROOT/.devgen}
CG_CLASSES=${CG_CLASSES:-grid fem apache offshore}
CG_ITERS=${CG_ITERS:-200}
RUNS=${RUNS:-5}
MD_SIZES=${MD_SIZES:-262144 1048576}
MD_STEPS=${MD_STEPS:-100}
SECTIONS=${SECTIONS:-stats compare sanitizer md cg}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
TMP=${TMPDIR:-/tmp}/irregfix-hoist
HOISTED=$TMP/devgen-hoist # the rewritten files, with cg, sp and md taken from their hoisted versions
SAMPLES="cg sp md"
mkdir -p "$OUT" "$TMP"
status=0

for s in $SAMPLES; do
  f=$REWRITTEN/$s.hoist.irregfix.cu
  if [ ! -f "$f" ] || ! grep -q "${s}_irregfix_hoisted\|_irregfix_hoisted<<<" "$f"; then
    echo "$f is missing or has no hoisted kernel: run scripts/pregenerate.sh with this tree's irregfix"
    exit 1
  fi
done
rm -rf "$HOISTED" && mkdir -p "$HOISTED" && cp "$REWRITTEN"/*.irregfix.cu "$HOISTED"/ || exit 1
for s in $SAMPLES; do cp "$REWRITTEN/$s.hoist.irregfix.cu" "$HOISTED/$s.irregfix.cu" || exit 1; done

{
  nvidia-smi -L || true
  cmake -S "$ROOT" -B "$B" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_TESTS=OFF \
    -DIRREGFIX_REWRITTEN_DIR="$REWRITTEN" &&
    cmake --build "$B" --target cg_original cg sp_original sp md_original md &&
    cmake -S "$ROOT" -B "$BH" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_TESTS=OFF \
      -DIRREGFIX_REWRITTEN_DIR="$HOISTED" &&
    cmake --build "$BH" --target cg sp md && cmake --build "$B" --target md
} >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; echo "BUILD FAILED"; exit 1; }
S=$B/samples   # originals and in-kernel programs
SH=$BH/samples # hoisted programs

# --- the hoisted path runs: IRREGFIX_STATS shows hoisted launches for each sample ---------
: >"$OUT/stats.log"
want stats && for run in "cg --matrix offshore --rows 20000 --iters 5" "sp --vars 2000 --clauses 8400 --rounds 5" \
  "md --atoms 4096 --steps 3 --rebuild 3"; do
  name=${run%% *}
  # shellcheck disable=SC2086
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell "$SH/$name/$name" ${run#* } >"$TMP/stats.$name" 2>&1
  rc=$?
  { echo "== $run (hoisted, IRREGFIX_LAYOUT=ell): exit $rc"; grep '^irregfix:' "$TMP/stats.$name"; } >>"$OUT/stats.log"
  if [ $rc -ne 0 ] || ! grep -q 'hoisted: launches [1-9]' "$TMP/stats.$name"; then
    echo "stats $name: the hoisted kernel did not run (exit $rc)" | tee -a "$OUT/stats.log"
    tail -20 "$TMP/stats.$name"
    status=1
  fi
done

# --- bit for bit: layouts and groups ------------------------------------------------------
: >"$OUT/compare.log"
COMPARES="ell:1 ell:3 ell:default sell32:default auto:default ell:1:always ell:default:always sell32:3:always"
want compare && for config in $COMPARES; do
  IFS=: read -r layout group always <<<"$config"
  for name in $SAMPLES; do
    if [ "$group" = default ]; then g_env=(env -u IRREGFIX_HOIST_GROUP); else g_env=(env IRREGFIX_HOIST_GROUP="$group"); fi
    [ -n "$always" ] && g_env+=(IRREGFIX_HOIST_ALWAYS=1)
    "${g_env[@]}" IRREGFIX_LAYOUT="$layout" sh "$ROOT/samples/compare.sh" "$name" "$S/$name/${name}_original" \
      "$SH/$name/$name" "$TMP/cmp.$name.$layout.$group" >>"$OUT/compare.log" 2>&1
    rc=$?
    echo "compare $name hoisted IRREGFIX_LAYOUT=$layout IRREGFIX_HOIST_GROUP=$group ${always:+IRREGFIX_HOIST_ALWAYS=1 }: exit $rc" | tee -a "$OUT/compare.log"
    [ $rc -eq 0 ] || status=1
  done
done

# --- compute-sanitizer: memcheck and racecheck, default group; memcheck with one iteration a step
if want sanitizer && [ -z "${SKIP_SANITIZER:-}" ] && command -v compute-sanitizer >/dev/null; then
  : >"$OUT/sanitizer.log"
  for check in "memcheck default" "racecheck default" "memcheck 1 always"; do
    read -r tool group always <<<"$check"
    for run in "cg/cg --matrix offshore --rows 20000 --iters 20" "md/md --atoms 4096 --steps 12 --rebuild 3" \
      "sp/sp --vars 2000 --clauses 8400 --rounds 20"; do
      if [ "$group" = default ]; then g_env=(env -u IRREGFIX_HOIST_GROUP); else g_env=(env IRREGFIX_HOIST_GROUP="$group"); fi
      [ -n "$always" ] && g_env+=(IRREGFIX_HOIST_ALWAYS=1)
      # shellcheck disable=SC2086
      "${g_env[@]}" IRREGFIX_LAYOUT=ell compute-sanitizer --tool "$tool" --error-exitcode 9 $SH/$run >"$TMP/san.log" 2>&1
      rc=$?
      echo "$tool IRREGFIX_HOIST_GROUP=$group ${always:+IRREGFIX_HOIST_ALWAYS=1 }hoisted $run: exit $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$TMP/san.log" | head -1)" |
        tee -a "$OUT/sanitizer.log"
      [ $rc -eq 0 ] || { status=1; tail -30 "$TMP/san.log" >>"$OUT/sanitizer.log"; }
    done
  done
elif want sanitizer; then
  echo "compute-sanitizer not run (SKIP_SANITIZER set or not installed)" | tee "$OUT/sanitizer.log"
fi

# --- MD timings: the remap every step -------------------------------------------------------
# Forced ELL (positions change every step, so every launch remaps): the in-kernel
# loop unchunked (remap, then kernel), pipelined in chunks of blocks (the model's
# count), and hoisted (the remap in slices of neighbours, slice s+1 beside step s).
per_step() { sed -n 's/.*(\([0-9.]*\) ms per step).*/\1/p' "$1" | head -1; }
hidden() { sed -n 's/.*pipelined launches [0-9]* (latest in \([0-9]*\) \([a-z ]*\)).* (\([0-9]*%\)) hidden.*/\1 \2, \3 hidden/p' "$1" | head -1; }
{
  echo "MD, $MD_STEPS steps, IRREGFIX_LAYOUT=ell (a remap every step), random order. ms per step (CUDA events"
  echo "around the step loop); hidden: the part of the remap during which the kernel did not wait for it."
  echo
  echo "| atoms | original | in-kernel, 1 chunk | in-kernel, chunks=auto | hoisted, default (4 slices) | hoisted, G=8 | hoisted, IRREGFIX_LAYOUT=auto | hidden (auto / hoisted default / G=8) |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$OUT/md.md"
: >"$OUT/md.log"
want md && for atoms in $MD_SIZES; do
  "$S/md/md_original" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/md.o" 2>&1
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell IRREGFIX_CHUNKS=1 "$S/md/md" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/md.k1" 2>&1
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell "$S/md/md" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/md.ka" 2>&1
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell "$SH/md/md" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/md.hd" 2>&1
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell IRREGFIX_HOIST_GROUP=8 "$SH/md/md" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/md.h8" 2>&1
  IRREGFIX_STATS=1 IRREGFIX_LAYOUT=auto "$SH/md/md" --atoms "$atoms" --steps "$MD_STEPS" >"$TMP/md.hauto" 2>&1
  for f in o k1 ka hd h8 hauto; do { echo "== md $atoms $f"; cat "$TMP/md.$f"; } >>"$OUT/md.log"; done
  echo "| $atoms | $(per_step "$TMP/md.o") | $(per_step "$TMP/md.k1") | $(per_step "$TMP/md.ka") | $(per_step "$TMP/md.hd") | $(per_step "$TMP/md.h8") | $(per_step "$TMP/md.hauto") | $(hidden "$TMP/md.ka") / $(hidden "$TMP/md.hd") / $(hidden "$TMP/md.h8") |" >>"$OUT/md.md"
done

# --- CG timings ----------------------------------------------------------------------------
per_iter() { sed -n 's/.*(\([0-9.]*\) ms per iteration)/\1/p' "$1" | head -1; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }'; }
# time_cg LABEL MATRIX SCALE ENV... -- PROGRAM: the median ms per iteration of $RUNS runs.
time_cg() {
  local label=$1 m=$2 scale=$3
  shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local prog=$1 i t
  : >"$TMP/times"
  for i in $(seq "$RUNS"); do
    env "${envs[@]}" "$prog" --matrix "$m" --scale "$scale" --iters "$CG_ITERS" >"$TMP/cg.run" 2>&1
    { echo "== cg $m $scale $label run $i: exit $?"; cat "$TMP/cg.run"; } >>"$OUT/cg.log"
    t=$(per_iter "$TMP/cg.run")
    [ -n "$t" ] && echo "$t" >>"$TMP/times"
  done
  median <"$TMP/times"
}
{
  echo "CG, $CG_ITERS iterations, scale 1. ms per iteration (whole solve / iterations, the one-time remap"
  echo "included), median of $RUNS runs. in-kernel and hoisted run under IRREGFIX_LAYOUT=ell (always"
  echo "transformed); hoisted: the first launch (the remap) in slices, the cached ones in-kernel; always:"
  echo "IRREGFIX_HOIST_ALWAYS=1, every launch in steps; G = IRREGFIX_HOIST_GROUP (iterations a step;"
  echo "default: the width in 4 steps)."
  echo
  echo "| matrix | original | in-kernel | hoisted | always G=1 | always G=4 | always G=default | hoisted vs in-kernel | always G=1 / default vs in-kernel |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$OUT/cg.md"
: >"$OUT/cg.log"
want cg && for m in $CG_CLASSES; do
  o=$(time_cg original "$m" 1 IRREGFIX_DISABLE=0 -- "$S/cg/cg_original")
  k=$(time_cg in-kernel "$m" 1 IRREGFIX_LAYOUT=ell -- "$S/cg/cg")
  h=$(time_cg hoisted "$m" 1 -u IRREGFIX_HOIST_GROUP IRREGFIX_LAYOUT=ell -- "$SH/cg/cg")
  h1=$(time_cg G=1 "$m" 1 IRREGFIX_LAYOUT=ell IRREGFIX_HOIST_ALWAYS=1 IRREGFIX_HOIST_GROUP=1 -- "$SH/cg/cg")
  h4=$(time_cg G=4 "$m" 1 IRREGFIX_LAYOUT=ell IRREGFIX_HOIST_ALWAYS=1 IRREGFIX_HOIST_GROUP=4 -- "$SH/cg/cg")
  hd=$(time_cg G=default "$m" 1 -u IRREGFIX_HOIST_GROUP IRREGFIX_HOIST_ALWAYS=1 IRREGFIX_LAYOUT=ell -- "$SH/cg/cg")
  echo "| $m | $o | $k | $h | $h1 | $h4 | $hd | $(ratio "$h" "$k") | $(ratio "$h1" "$k") / $(ratio "$hd" "$k") |" >>"$OUT/cg.md"
done
# The hoisted launches of one default run, for the table's reading (steps per SpMV).
want cg && IRREGFIX_STATS=1 IRREGFIX_LAYOUT=ell "$SH/cg/cg" --matrix offshore --iters 3 2>&1 | grep -E 'site|hoisted|pipelined' >>"$OUT/cg.md"

{
  cat "$OUT/md.md"
  echo
  cat "$OUT/cg.md"
  echo
  want compare && grep -c 'exit 0' "$OUT/compare.log" | sed "s/^/compare runs passed (of $(($(wc -w <<<"$COMPARES") * 3))): /"
  want sanitizer && grep -c 'exit 0' "$OUT/sanitizer.log" | sed 's/^/sanitizer runs clean (of 9): /'
  if [ $status -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "SOME CHECKS FAILED"; fi
} >"$OUT/summary.md"
cat "$OUT/summary.md"
exit $status
