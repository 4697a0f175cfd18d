#!/usr/bin/env bash
# Two irregfix binaries against the parse on the long straight-line files, run
# in turn (parse, first binary, second binary, round after round), so that the
# load of a shared machine falls on all three alike. Each binary runs as the
# census runs it: `irregfix --report=json F -o out -- flags` (remarks printed).
#
#   bench/tool_speed_compare.sh <irregfix before> <irregfix after> [runs]   (default runs: 5)
#   HECBENCH_SRC=corpus/HeCBench/src bench/tool_speed_compare.sh ...        (also s3d-cuda/S3D.cu)
#
# Prints CPU seconds (user + system, /usr/bin/time), the median of the runs,
# and each binary's ratio to the parse. Exits 1 where the two binaries'
# outputs (report, rewritten file, remarks, exit code) differ.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '7,8p' "$0" >&2; exit 1; }
before=$(readlink -f "$1")
after=$(readlink -f "$2")
runs=${3:-5}
cuda=${CUDA_PATH:-/usr/local/cuda}
clang=${CLANGXX:-clang++-19}
for b in "$before" "$after"; do [ -x "$b" ] || { echo "tool_speed_compare: no irregfix at $b" >&2; exit 1; }; done
[ -x /usr/bin/time ] || { echo "tool_speed_compare: needs /usr/bin/time (GNU time)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/gen_segsort_like.py" "$work/sort16.cu" --kernels 16
python3 "$root/bench/gen_segsort_like.py" "$work/sort32.cu" --kernels 32
mapfile -t flags < <(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import census
print("\n".join(f for f in census.parse_flags(sys.argv[2], "sm_90") if f != "-fsyntax-only"))' "$root/bench" "$cuda")
# name | file | extra flags | folder to run in
cases=("register sort, 16 kernels x 3 types|$work/sort16.cu|-std=c++17|."
       "register sort, 32 kernels x 3 types|$work/sort32.cu|-std=c++17|.")
if [ -n "${HECBENCH_SRC:-}" ]; then
  prog=$HECBENCH_SRC/s3d-cuda
  [ -e "$prog/S3D.cu" ] || { echo "tool_speed_compare: no $prog/S3D.cu" >&2; exit 1; }
  extra=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import census
words = {f: w for f, w, _ in census.program_files(sys.argv[2], 60)}["S3D.cu"]
print(" ".join(census.nvcc_to_clang(words[1:])))' "$root/bench" "$prog")
  cases+=("s3d-cuda/S3D.cu|S3D.cu|$extra|$prog")
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
cpu() { # CPU seconds of "$@" into the file $1
  local into=$1
  shift
  /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" > /dev/null 2>&1 || true
  awk '{print $1 + $2}' "$work/cpu" >> "$into"
}

echo "| file | parse | before | ratio | after | ratio |"
echo "|---|---:|---:|---:|---:|---:|"
differ=0
for c in "${cases[@]}"; do
  IFS='|' read -r name file extra dir <<< "$c"
  # shellcheck disable=SC2206
  extra_args=($extra)
  for which in before after; do
    bin=$before
    [ $which = after ] && bin=$after
    set +e
    env -C "$dir" "$bin" --report=json "$file" -o "$work/$which.out" -- "${extra_args[@]}" > "$work/$which.json" 2> "$work/$which.err"
    echo "exit $?" >> "$work/$which.json"
    set -e
  done
  for part in out json err; do
    cmp -s "$work/before.$part" "$work/after.$part" || { echo "tool_speed_compare: $name: the $part differs" >&2; differ=1; }
  done
  rm -f "$work"/t.parse "$work"/t.before "$work"/t.after
  for _ in $(seq "$runs"); do
    cpu "$work/t.parse" env -C "$dir" "$clang" -fsyntax-only "${flags[@]}" "${extra_args[@]}" "$file"
    cpu "$work/t.before" env -C "$dir" "$before" --report=json "$file" -o "$work/o.cu" -- "${extra_args[@]}"
    cpu "$work/t.after" env -C "$dir" "$after" --report=json "$file" -o "$work/o.cu" -- "${extra_args[@]}"
  done
  p=$(median < "$work/t.parse")
  b=$(median < "$work/t.before")
  a=$(median < "$work/t.after")
  printf '| %s | %.2f | %.2f | %.2fx | %.2f | %.2fx |\n' "$name" "$p" "$b" "$(echo "$b / $p" | bc -l)" "$a" \
    "$(echo "$a / $p" | bc -l)"
done
exit $differ
