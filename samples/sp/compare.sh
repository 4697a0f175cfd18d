#!/bin/sh
# compare.sh ORIGINAL TRANSFORMED WORKDIR
# Runs the original and the irregfix-transformed SP on small random 3-SAT
# formulas (generated, and one written as a DIMACS file and read back) with the
# same seed and compares the final eta / pi values bit for bit.
# Exit: 0 identical, 1 different or failed, 77 no CUDA device (test skipped).
set -u
orig=$1 xform=$2 dir=$3
mkdir -p "$dir" || exit 1

# A small DIMACS file, SATLIB style (comments, '%' trailer), exercising the reader.
cnf=$dir/small.cnf
awk 'BEGIN {
  srand(3); v = 300; c = 1260;
  print "c random 3-SAT for sp_bit_identical"; print "p cnf " v " " c;
  for (i = 0; i < c; i++) {
    a = int(rand() * v) + 1; do b = int(rand() * v) + 1; while (b == a);
    do d = int(rand() * v) + 1; while (d == a || d == b);
    printf "%d %d %d 0\n", (rand() < 0.5 ? -a : a), (rand() < 0.5 ? -b : b), (rand() < 0.5 ? -d : d);
  }
  print "%"; print "0" }' >"$cnf" || exit 1

for spec in "gen1 --vars 2000 --ratio 4.2" "gen2 --vars 5000 --ratio 3.5" \
            "gen3 --vars 1000 --ratio 4.2 --k 4" "dimacs --cnf $cnf"; do
  # shellcheck disable=SC2086
  set -- $spec
  tag=$1
  shift
  for prog in original transformed; do
    if [ "$prog" = original ]; then exe=$orig; else exe=$xform; fi
    "$exe" "$@" --seed 7 --rounds 60 --dump "$dir/$tag.$prog.bin" >"$dir/$tag.$prog.log" 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
      echo "sp_bit_identical: no CUDA device, skipped"
      exit 77
    fi
    if [ $rc -ne 0 ]; then
      echo "sp_bit_identical: $prog sp on $tag failed (exit $rc):"
      cat "$dir/$tag.$prog.log"
      exit 1
    fi
  done
  if cmp "$dir/$tag.original.bin" "$dir/$tag.transformed.bin"; then
    echo "$tag ($*): identical, $(grep checksum "$dir/$tag.original.log")"
  else
    echo "sp_bit_identical: $tag: results differ"
    grep -H -e checksum -e 'max eta' "$dir/$tag.original.log" "$dir/$tag.transformed.log"
    exit 1
  fi
done
exit 0
