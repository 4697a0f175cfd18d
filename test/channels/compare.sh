#!/bin/sh
# compare.sh ORIGINAL REWRITTEN WORKDIR
# For a program that lists its cases (`--list`) and runs one (`CASE OUT.bin`):
# runs every case (here: every channel) of the original and the rewritten program and compares
# their outputs bit for bit, the rewritten one under auto, forced ELL and SELL-32,
# each with IRREGFIX_VERIFY=1 (a stale copy served would abort), and prints a
# line per channel. Exit: 0 identical, 1 different or failed, 77 no CUDA device.
set -u
orig=$1 xform=$2 dir=$3
mkdir -p "$dir" || exit 1
first=$("$orig" --list | head -n 1)
"$orig" "$first" "$dir/probe.bin" >/dev/null 2>&1
probe=$?
[ $probe -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
status=0
for ch in $("$orig" --list); do
  if ! "$orig" "$ch" "$dir/$ch.original.bin" >"$dir/$ch.original.log" 2>&1; then
    echo "$ch: the original failed"; cat "$dir/$ch.original.log"; status=1; continue
  fi
  for layout in auto ell sell32; do
    out="$dir/$ch.$layout.bin"
    if ! IRREGFIX_VERIFY=1 IRREGFIX_STATS=1 IRREGFIX_LAYOUT=$layout "$xform" "$ch" "$out" >"$dir/$ch.$layout.log" 2>&1; then
      echo "$ch ($layout): the rewritten program failed"; tail -5 "$dir/$ch.$layout.log"; status=1; continue
    fi
    if cmp -s "$dir/$ch.original.bin" "$out"; then
      hits=$(grep -o 'cache hits [0-9]*, misses [0-9]*, refreshes [0-9]*' "$dir/$ch.$layout.log" | head -1)
      echo "$ch ($layout): bit-identical (${hits:-no stats})"
    else
      echo "$ch ($layout): DIFFERENT"; status=1
    fi
  done
done
exit $status
