#!/usr/bin/env bash
# Builds and runs the SP and MD samples on a GPU machine, original vs
# irregfix-transformed, and writes logs and markdown tables under $OUT.
#
#   OUT=/path/to/results bench/run_device_issue3.sh   (from anywhere; OUT defaults to ./bench-out-issue3)
#
# The GPU machine has no Clang, so the transformed sources come from
# IRREGFIX_REWRITTEN_DIR (default: <repo>/.devgen), holding sp.irregfix.cu and
# md.irregfix.cu written by the irregfix tool elsewhere (configuring needs every
# sample's file there, cg.irregfix.cu too, though only SP and MD are built).
#
# What it measures, per input / size:
#   whole time   CUDA events around the iteration loop (SP rounds, MD steps), the
#                runtime's remaps included in the transformed program;
#   kernel time  --time-kernels: CUDA events around each launch statement of
#                calc_pi_values / lj_forces, median. In the transformed program the
#                statement is the generated launcher, so this includes its host-side
#                work and any remap it issues on the launch's stream;
#   sectors      ncu l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum of calc_pi_values
#                and lj_forces (kernels whose names match), original vs transformed,
#                mean over the profiled launches (after NCU_SKIP matching launches).
# Original and transformed results are compared bit for bit (cmp of --dump files).
#
# Environment knobs:
#   BUILD_DIR (default /tmp/b3), IRREGFIX_REWRITTEN_DIR, CMAKE_SOURCE (default: the repo),
#   IRREGFIX_CMAKE_ARGS, SP_INPUTS (default "4000:16800 10000:42000", vars:clauses),
#   SP_ROUNDS (default 200), MD_SIZES (default "12288 24576 36864 73728 262144"),
#   MD_STEPS (default 100), MD_REBUILD (default 5), SKIP_NCU=1, NCU_SKIP (default 20),
#   NCU_COUNT (default 4), NCU_MD_SIZES (default "12288 262144").
# Files written under $OUT: build.log sp.log md.log ncu.log sp.md md.md ncu.md summary.md
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench-out-issue3}
B=${BUILD_DIR:-/tmp/b3}
REWRITTEN=${IRREGFIX_REWRITTEN_DIR:-$ROOT/.devgen}
SRC=${CMAKE_SOURCE:-$ROOT}
SP_INPUTS=${SP_INPUTS:-4000:16800 10000:42000}
SP_ROUNDS=${SP_ROUNDS:-200}
MD_SIZES=${MD_SIZES:-12288 24576 36864 73728 262144}
MD_STEPS=${MD_STEPS:-100}
MD_REBUILD=${MD_REBUILD:-5}
NCU_SKIP=${NCU_SKIP:-20}
NCU_COUNT=${NCU_COUNT:-4}
NCU_MD_SIZES=${NCU_MD_SIZES:-12288 262144}
TMP=${TMPDIR:-/tmp}/irregfix-issue3
mkdir -p "$OUT" "$TMP"
status=0

# --- build -------------------------------------------------------------------
{
  nvidia-smi -L || true
  # shellcheck disable=SC2086
  cmake -S "$SRC" -B "$B" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_TESTS=OFF \
    -DIRREGFIX_REWRITTEN_DIR="$REWRITTEN" ${IRREGFIX_CMAKE_ARGS:-} &&
    cmake --build "$B" --target sp_original sp md_original md
} >"$OUT/build.log" 2>&1
# shellcheck disable=SC2181
if [ $? -ne 0 ]; then
  tail -40 "$OUT/build.log"
  echo "BUILD FAILED (see build.log)" | tee "$OUT/summary.md"
  exit 1
fi
SP_DIR=$(dirname "$(find "$B" -name sp_original -type f -perm -u+x | head -1)")
MD_DIR=$(dirname "$(find "$B" -name md_original -type f -perm -u+x | head -1)")

field() { sed -n "s/^$1: *//p" "$2" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "-" }'; }
median_ms() { sed -n "s/^$1: median \([0-9.]*\) ms.*/\1/p" "$2" | head -1; }

# --- SP ------------------------------------------------------------------------
SP_MD=$OUT/sp.md
{
  echo "SP (random 3-SAT, $SP_ROUNDS rounds). Whole: CUDA events around all rounds, remaps included."
  echo "Kernel: median of the calc_pi_values launch statements (2 a round), launcher host work included."
  echo
  echo "| input (vars / clauses) | edges | last max Δeta | converged | original ms | irregfix ms | speedup | calc_pi original ms | calc_pi irregfix ms | kernel speedup | bitwise identical |"
  echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"
} >"$SP_MD"
: >"$OUT/sp.log"
for input in $SP_INPUTS; do
  vars=${input%%:*} clauses=${input##*:}
  o=$TMP/sp.$vars.original t=$TMP/sp.$vars.irregfix
  "$SP_DIR/sp_original" --vars "$vars" --clauses "$clauses" --rounds "$SP_ROUNDS" --seed 1 --time-kernels \
    --dump "$o.bin" >"$o.log" 2>&1
  rc1=$?
  IRREGFIX_STATS=1 "$SP_DIR/sp" --vars "$vars" --clauses "$clauses" --rounds "$SP_ROUNDS" --seed 1 --time-kernels \
    --dump "$t.bin" >"$t.log" 2>&1
  rc2=$?
  { echo "== sp $vars/$clauses original (exit $rc1)"; cat "$o.log"; echo "== sp $vars/$clauses irregfix (exit $rc2)"; cat "$t.log"; } >>"$OUT/sp.log"
  same=no
  if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$o.bin" "$t.bin"; then same=yes; else status=1; fi
  edges=$(sed -n 's/.*edges: *\([0-9]*\).*/\1/p' "$o.log" | head -1)
  last=$(sed -n 's/.*last round \([0-9.e+-]*\).*/\1/p' "$o.log" | head -1)
  conv=$(sed -n 's/^converged: *//p' "$o.log" | head -1)
  ms1=$(field "whole time" "$o.log" | cut -d' ' -f1)
  ms2=$(field "whole time" "$t.log" | cut -d' ' -f1)
  k1=$(median_ms calc_pi_values "$o.log")
  k2=$(median_ms calc_pi_values "$t.log")
  echo "| $vars / $clauses | $edges | $last | $conv | $ms1 | $ms2 | $(ratio "$ms1" "$ms2") | $k1 | $k2 | $(ratio "$k1" "$k2") | $same |" >>"$SP_MD"
done
sh "$ROOT/samples/compare.sh" sp "$SP_DIR/sp_original" "$SP_DIR/sp" "$TMP/sp_bit_identical" >>"$OUT/sp.log" 2>&1
rc=$?
echo "compare.sh (sp_bit_identical test script): exit $rc" >>"$OUT/sp.log"
[ $rc -eq 0 ] || status=1

# --- MD ------------------------------------------------------------------------
MD_MD=$OUT/md.md
{
  echo "MD (Lennard-Jones, $MD_STEPS steps, list rebuilt every $MD_REBUILD steps). Step: whole time / steps, remaps included."
  echo "Kernel: median of the lj_forces launch statements (one a step), launcher host work included."
  echo
  echo "| atoms | order | avg neighbours | energy drift (relative) | original ms/step | irregfix ms/step | speedup | lj_forces original ms | lj_forces irregfix ms | kernel speedup | bitwise identical |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$MD_MD"
: >"$OUT/md.log"
for atoms in $MD_SIZES; do
  for order in random sorted; do
    flag=""
    [ "$order" = sorted ] && flag=--sorted
    o=$TMP/md.$atoms.$order.original t=$TMP/md.$atoms.$order.irregfix
    # shellcheck disable=SC2086
    "$MD_DIR/md_original" --atoms "$atoms" --steps "$MD_STEPS" --rebuild "$MD_REBUILD" $flag --seed 1 \
      --time-kernels --dump "$o.bin" >"$o.log" 2>&1
    rc1=$?
    # shellcheck disable=SC2086
    IRREGFIX_STATS=1 "$MD_DIR/md" --atoms "$atoms" --steps "$MD_STEPS" --rebuild "$MD_REBUILD" $flag --seed 1 \
      --time-kernels --dump "$t.bin" >"$t.log" 2>&1
    rc2=$?
    { echo "== md $atoms $order original (exit $rc1)"; cat "$o.log"; echo "== md $atoms $order irregfix (exit $rc2)"; cat "$t.log"; } >>"$OUT/md.log"
    same=no
    if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$o.bin" "$t.bin"; then same=yes; else status=1; fi
    nb=$(sed -n 's/^neighbours (last list): avg \([0-9.]*\).*/\1/p' "$o.log" | head -1)
    drift=$(sed -n 's/^energy drift: .*(\([0-9.e+-]*\) relative)/\1/p' "$o.log" | head -1)
    s1=$(field "whole time" "$o.log" | sed -n 's/.*(\([0-9.]*\) ms per step)/\1/p')
    s2=$(field "whole time" "$t.log" | sed -n 's/.*(\([0-9.]*\) ms per step)/\1/p')
    k1=$(median_ms lj_forces "$o.log")
    k2=$(median_ms lj_forces "$t.log")
    echo "| $atoms | $order | $nb | $drift | $s1 | $s2 | $(ratio "$s1" "$s2") | $k1 | $k2 | $(ratio "$k1" "$k2") | $same |" >>"$MD_MD"
  done
done
sh "$ROOT/samples/compare.sh" md "$MD_DIR/md_original" "$MD_DIR/md" "$TMP/md_bit_identical" >>"$OUT/md.log" 2>&1
rc=$?
echo "compare.sh (md_bit_identical test script): exit $rc" >>"$OUT/md.log"
[ $rc -eq 0 ] || status=1

# --- Nsight Compute: global load sectors, original vs transformed ---------------
NCU_MD=$OUT/ncu.md
: >"$NCU_MD"
if [ "${SKIP_NCU:-0}" != 1 ]; then
  NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  : >"$OUT/ncu.log"
  {
    echo "Global load sectors (ncu l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum), mean over $NCU_COUNT launches"
    echo "after skipping $NCU_SKIP matching launches; every kernel whose name matches is listed."
    echo
    echo "| program | input | kernel | launches | sectors |"
    echo "|---|---|---|---:|---:|"
  } >"$NCU_MD"
  profile() { # tag input regex exe args...
    local tag=$1 input=$2 regex=$3
    shift 3
    local csv
    csv=$TMP/ncu.$tag.$(echo "$input" | tr ' /' '__').csv
    "$NCU" --clock-control none --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
      --kernel-name "regex:$regex" --launch-skip "$NCU_SKIP" --launch-count "$NCU_COUNT" --csv "$@" \
      >"$csv" 2>>"$OUT/ncu.log"
    local rc=$?
    { echo "== $tag $input (exit $rc)"; cat "$csv"; } >>"$OUT/ncu.log"
    [ $rc -eq 0 ] || status=1
    # CSV columns: ... "Kernel Name" (5th) ... "Metric Value" (last).
    grep '^"[0-9]' "$csv" | awk -F'","' -v p="$tag" -v in_="$input" '
      { name = $5; sub(/\(.*/, "", name); v = $NF; gsub(/[",]/, "", v); s[name] += v; c[name]++ }
      END { for (k in s) printf "| %s | %s | %s | %d | %.0f |\n", p, in_, k, c[k], s[k] / c[k] }' | sort >>"$NCU_MD"
  }
  sp_rounds=$(( (NCU_SKIP + NCU_COUNT) / 2 + 5 ))
  for input in $SP_INPUTS; do
    vars=${input%%:*} clauses=${input##*:}
    profile sp_original "$vars/$clauses" calc_pi_values "$SP_DIR/sp_original" --vars "$vars" --clauses "$clauses" --rounds "$sp_rounds" --seed 1
    profile sp "$vars/$clauses" calc_pi_values "$SP_DIR/sp" --vars "$vars" --clauses "$clauses" --rounds "$sp_rounds" --seed 1
  done
  md_steps=$(( NCU_SKIP + NCU_COUNT + 5 ))
  for atoms in $NCU_MD_SIZES; do
    for order in random sorted; do
      flag=""
      [ "$order" = sorted ] && flag=--sorted
      # shellcheck disable=SC2086
      profile md_original "$atoms $order" lj_forces "$MD_DIR/md_original" --atoms "$atoms" --steps "$md_steps" $flag --seed 1
      # shellcheck disable=SC2086
      profile md "$atoms $order" lj_forces "$MD_DIR/md" --atoms "$atoms" --steps "$md_steps" $flag --seed 1
    done
  done
fi

# --- summary ---------------------------------------------------------------------
{
  echo "# irregfix device run: SP and MD (issue 3)"
  echo
  nvidia-smi -L 2>/dev/null | head -1
  echo
  cat "$SP_MD"
  echo
  tail -1 "$OUT/sp.log"
  echo
  cat "$MD_MD"
  echo
  tail -1 "$OUT/md.log"
  echo
  cat "$NCU_MD"
  echo
  if [ $status -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "SOME CHECKS FAILED (see sp.log, md.log, ncu.log)"; fi
} >"$OUT/summary.md"
cat "$OUT/summary.md"
exit $status
