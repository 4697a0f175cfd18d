#!/usr/bin/env bash
# How long irregfix takes against `clang++-19 -fsyntax-only` with the same flags
# (those irregfix's argument adjuster adds) on the CG and SP samples, a
# generated 5,000-line file of 200 kernels, and generated register-sorting
# kernels (bench/gen_segsort_like.py: long straight-line compare-exchange code
# over dozens of register locals) at two sizes, the second twice the first, so
# that an analysis that grows faster than the kernels shows as a growing ratio.
#
#   bench/tool_speed.sh [irregfix binary] [runs]      (default: build/tool/irregfix, 7)
#   HECBENCH_SRC=corpus/HeCBench/src bench/tool_speed.sh ...   (also four HeCBench files)
#
# Exits 2 when a file's ratio passes $MAX_RATIO (default 3): the tool is meant
# to cost about a parse, never a multiple of it.
#
# Times CPU seconds (user + system, by /usr/bin/time), the median of the runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$root/build/tool/irregfix}
runs=${2:-7}
cuda=${CUDA_PATH:-/usr/local/cuda}
clang=${CLANGXX:-clang++-19}
[ -x "$tool" ] || { echo "tool_speed: no irregfix at $tool (pass its path)" >&2; exit 1; }
tool=$(readlink -f "$tool") # the HeCBench files run in their own folders
[ -e "$cuda/include/cuda_runtime.h" ] || { echo "tool_speed: no CUDA at $cuda (set CUDA_PATH)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "tool_speed: needs /usr/bin/time (GNU time) for CPU seconds" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/gen_many_kernels.py" "$work/many_kernels.cu"
python3 "$root/bench/gen_segsort_like.py" "$work/segsort_like.cu" --kernels 16
python3 "$root/bench/gen_segsort_like.py" "$work/segsort_like_2x.cu" --kernels 32
max_ratio=${MAX_RATIO:-3}

# The parse's flags, nvcc's dialect included, as bench/census.py has them.
mapfile -t flags < <(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import census
print("\n".join(f for f in census.parse_flags(sys.argv[2], "sm_90") if f != "-fsyntax-only"))' "$root/bench" "$cuda")
# name | file | extra flags | folder to run in
cases=("samples/cg/cg.cu|$root/samples/cg/cg.cu|-I$root/samples/cg|."
       "samples/sp/sp.cu|$root/samples/sp/sp.cu|-I$root/samples/sp|."
       "generated, 200 kernels|$work/many_kernels.cu||."
       "generated register sort, 16 kernels x 3 types|$work/segsort_like.cu|-std=c++17|."
       "generated register sort, 32 kernels x 3 types|$work/segsort_like_2x.cu|-std=c++17|.")
# With HECBENCH_SRC (HeCBench's src folder): its largest straight-line kernels
# and three others, each with its Makefile's flags (as bench/census.py reads
# them), run in its program's folder.
if [ -n "${HECBENCH_SRC:-}" ]; then
  for prog_file in s3d-cuda/S3D.cu segsort-cuda/main.cu lulesh-cuda/lulesh.cu logic-rewrite-cuda/refactor_core.cu; do
    prog=$HECBENCH_SRC/${prog_file%%/*}
    rel=${prog_file#*/}
    [ -e "$prog/$rel" ] || { echo "tool_speed: no $prog/$rel" >&2; exit 1; }
    extra=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import census
words = {f: w for f, w, _ in census.program_files(sys.argv[2], 60)}[sys.argv[3]]
print(" ".join(census.nvcc_to_clang(words[1:])))' "$root/bench" "$prog" "$rel")
    cases+=("HeCBench $prog_file|$rel|$extra|$prog")
  done
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# CPU seconds (user + system) of "$@", the median of $runs runs after one
# warm-up: on a machine others are building on, wall seconds measure the load.
time_cmd() {
  "$@" > /dev/null 2>&1
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" > /dev/null 2>&1
    awk '{print $1 + $2}' "$work/cpu"
  done | median
}

echo "| file | lines | clang++-19 -fsyntax-only (CPU s) | irregfix (CPU s) | ratio |"
echo "|---|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file extra dir <<< "$c"
  # shellcheck disable=SC2206
  extra_args=($extra)
  env -C "$dir" "$clang" -fsyntax-only "${flags[@]}" "${extra_args[@]}" "$file" 2> /dev/null ||
    { echo "tool_speed: clang++ does not parse $file" >&2; exit 1; }
  env -C "$dir" "$tool" --quiet "--cuda-path=$cuda" "$file" -- "${extra_args[@]}" > /dev/null 2> "$work/err" ||
    { cat "$work/err" >&2; echo "tool_speed: irregfix fails on $file" >&2; exit 1; }
  parse=$(time_cmd env -C "$dir" "$clang" -fsyntax-only "${flags[@]}" "${extra_args[@]}" "$file")
  fix=$(time_cmd env -C "$dir" "$tool" --quiet "--cuda-path=$cuda" "$file" -- "${extra_args[@]}")
  ratio=$(echo "$fix / $parse" | bc -l)
  path=$file
  [ "${file:0:1}" = / ] || path=$dir/$file
  printf '| %s | %d | %.3f | %.3f | %.2fx |\n' "$name" "$(wc -l < "$path")" "$parse" "$fix" "$ratio"
  if [ "$(echo "$ratio > $max_ratio" | bc -l)" = 1 ]; then
    echo "tool_speed: $name: irregfix takes ${ratio}x the parse (more than ${max_ratio}x)" >&2
    slow=1
  fi
done
[ -z "${slow:-}" ] || exit 2
