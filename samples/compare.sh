#!/bin/sh
# compare.sh SAMPLE ORIGINAL TRANSFORMED WORKDIR
# Runs the original and the irregfix-transformed SAMPLE (cg, sp, md or graph) on small
# inputs with the same seed and compares their --dump files bit for bit:
#   cg  generated matrices of the four classes and a renumbered grid, 50 CG
#       iterations (solutions); the renumbered grid also with the warp-a-row
#       SpMV, solved and alone (y = A x after 20 launches)
#   sp  random 3-/4-SAT, generated and one DIMACS file read back, 60 rounds
#       (final eta, pi_same, pi_opp)
#   md  random and cell-sorted numbering, list rebuilt every step and every few
#       steps, 40 steps (final positions)
#   graph  clustered graphs with long and short adjacency lists, 3 rounds of
#       degree count, BFS and components (labels, levels, counts)
# Exit: 0 identical, 1 different or failed, 77 no CUDA device (test skipped).
set -u
if [ $# -ne 4 ]; then
  echo "usage: compare.sh cg|sp|md|graph ORIGINAL TRANSFORMED WORKDIR" >&2
  exit 1
fi
name=$1 orig=$2 xform=$3 dir=$4
mkdir -p "$dir" || exit 1

# Per sample: the inputs (a tag, then the program's arguments, one per line),
# the arguments every run gets, what is compared and the log lines shown when
# the results differ.
case $name in
cg)
  specs="grid --matrix grid --rows 40000
offshore --matrix offshore --rows 20000
apache --matrix apache --rows 30000
fem --matrix fem --rows 30000
sgrid --matrix grid-shuffled --rows 40000
wsgrid --matrix grid-shuffled --rows 40000 --warp
wspmv --matrix grid-shuffled --rows 40000 --warp --spmv 20"
  common="--seed 7 --iters 50" what=solutions show=residual
  ;;
sp)
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
  specs="gen1 --vars 2000 --ratio 4.2
gen2 --vars 5000 --ratio 3.5
gen3 --vars 1000 --ratio 4.2 --k 4
dimacs --cnf $cnf"
  common="--seed 7 --rounds 60" what=results show='max eta'
  ;;
md)
  specs="r4k --atoms 4096 --rebuild 5
s4k --atoms 4096 --rebuild 5 --sorted
r12k --atoms 12288 --rebuild 1
s10k --atoms 10000 --rebuild 3 --sorted"
  common="--seed 7 --steps 40" what=positions show='energy per atom'
  ;;
graph)
  # Long lists (the lanes layout under auto), short ones (a copy), one cluster.
  specs="long --vertices 8192 --degree 1200 --cluster 2048
short --vertices 20000 --degree 12 --cluster 500
one --vertices 3000 --degree 300 --cluster 3000"
  common="--seed 7 --rounds 3" what='labels, levels or counts' show=components
  ;;
*)
  echo "compare.sh: unknown sample '$name' (cg, sp, md or graph)" >&2
  exit 1
  ;;
esac

test=${name}_bit_identical
echo "$specs" | while read -r tag args; do
  for prog in original transformed; do
    if [ "$prog" = original ]; then exe=$orig; else exe=$xform; fi
    # shellcheck disable=SC2086
    "$exe" $args $common --dump "$dir/$tag.$prog.bin" >"$dir/$tag.$prog.log" 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
      echo "$test: no CUDA device, skipped"
      exit 77
    fi
    if [ $rc -ne 0 ]; then
      echo "$test: $prog $name on $tag failed (exit $rc):"
      cat "$dir/$tag.$prog.log"
      exit 1
    fi
  done
  if cmp "$dir/$tag.original.bin" "$dir/$tag.transformed.bin"; then
    echo "$tag ($args): identical, $(grep checksum "$dir/$tag.original.log")"
  else
    echo "$test: $tag: $what differ"
    grep -H -e checksum -e "$show" "$dir/$tag.original.log" "$dir/$tag.transformed.log"
    exit 1
  fi
done
# The loop runs in a subshell (a pipeline): its exit status is the result.
