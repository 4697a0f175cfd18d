#!/bin/sh
# compare.sh ORIGINAL TRANSFORMED WORKDIR
# Runs the original and the irregfix-transformed MD on small systems (random
# and cell-sorted numbering, list rebuilt every step and every few steps) with
# the same seed and compares the final positions bit for bit.
# Exit: 0 identical, 1 different or failed, 77 no CUDA device (test skipped).
set -u
orig=$1 xform=$2 dir=$3
mkdir -p "$dir" || exit 1
for spec in "r4k --atoms 4096 --rebuild 5" "s4k --atoms 4096 --rebuild 5 --sorted" \
            "r12k --atoms 12288 --rebuild 1" "s10k --atoms 10000 --rebuild 3 --sorted"; do
  # shellcheck disable=SC2086
  set -- $spec
  tag=$1
  shift
  for prog in original transformed; do
    if [ "$prog" = original ]; then exe=$orig; else exe=$xform; fi
    "$exe" "$@" --seed 7 --steps 40 --dump "$dir/$tag.$prog.bin" >"$dir/$tag.$prog.log" 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
      echo "md_bit_identical: no CUDA device, skipped"
      exit 77
    fi
    if [ $rc -ne 0 ]; then
      echo "md_bit_identical: $prog md on $tag failed (exit $rc):"
      cat "$dir/$tag.$prog.log"
      exit 1
    fi
  done
  if cmp "$dir/$tag.original.bin" "$dir/$tag.transformed.bin"; then
    echo "$tag ($*): identical, $(grep checksum "$dir/$tag.original.log")"
  else
    echo "md_bit_identical: $tag: positions differ"
    grep -H -e checksum -e 'energy per atom' "$dir/$tag.original.log" "$dir/$tag.transformed.log"
    exit 1
  fi
done
exit 0
