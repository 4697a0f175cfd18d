#!/bin/sh
# compare.sh ORIGINAL TRANSFORMED WORKDIR
# Runs the original and the irregfix-transformed CG on small generated matrices
# with the same seed and compares the solutions bit for bit.
# Exit: 0 identical, 1 different or failed, 77 no CUDA device (test skipped).
set -u
orig=$1 xform=$2 dir=$3
mkdir -p "$dir" || exit 1
for spec in "grid 40000" "offshore 20000" "apache 30000" "fem 30000"; do
  # shellcheck disable=SC2086
  set -- $spec
  cls=$1 rows=$2
  for prog in original transformed; do
    if [ "$prog" = original ]; then exe=$orig; else exe=$xform; fi
    "$exe" --matrix "$cls" --rows "$rows" --seed 7 --iters 50 --dump "$dir/$cls.$prog.bin" \
      >"$dir/$cls.$prog.log" 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
      echo "cg_bit_identical: no CUDA device, skipped"
      exit 77
    fi
    if [ $rc -ne 0 ]; then
      echo "cg_bit_identical: $prog cg on $cls failed (exit $rc):"
      cat "$dir/$cls.$prog.log"
      exit 1
    fi
  done
  if cmp "$dir/$cls.original.bin" "$dir/$cls.transformed.bin"; then
    echo "$cls ($rows rows): identical, $(grep checksum "$dir/$cls.original.log")"
  else
    echo "cg_bit_identical: $cls: solutions differ"
    grep -H -e checksum -e residual "$dir/$cls.original.log" "$dir/$cls.transformed.log"
    exit 1
  fi
done
exit 0
