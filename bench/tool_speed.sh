#!/usr/bin/env bash
# How long irregfix takes against `clang++-19 -fsyntax-only` with the same flags
# (those irregfix's argument adjuster adds) on the CG and SP samples and a
# generated 5,000-line file of 200 kernels. Not a timed test.
#
#   bench/tool_speed.sh [irregfix binary] [runs]      (default: build/tool/irregfix, 7)
#
# Uses hyperfine when installed (median of the runs), else a loop over date +%s.%N.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$root/build/tool/irregfix}
runs=${2:-7}
cuda=${CUDA_PATH:-/usr/local/cuda}
clang=${CLANGXX:-clang++-19}
[ -x "$tool" ] || { echo "tool_speed: no irregfix at $tool (pass its path)" >&2; exit 1; }
[ -e "$cuda/include/cuda_runtime.h" ] || { echo "tool_speed: no CUDA at $cuda (set CUDA_PATH)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/gen_many_kernels.py" "$work/many_kernels.cu"

flags=(-x cuda --cuda-host-only "--cuda-path=$cuda" --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version
       -isystem "$root/lib/Headers" -isystem "$cuda/include/cccl")
# name | file | extra flags
cases=("samples/cg/cg.cu|$root/samples/cg/cg.cu|-I$root/samples/cg"
       "samples/sp/sp.cu|$root/samples/sp/sp.cu|-I$root/samples/sp"
       "generated, 200 kernels|$work/many_kernels.cu|")

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

time_cmd() { # prints the median seconds of $runs runs of "$@" (after one warm-up)
  if command -v hyperfine > /dev/null; then
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/h.json" -- "$(printf '%q ' "$@")" > /dev/null 2>&1
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/h.json"
  else
    "$@" > /dev/null 2>&1
    for _ in $(seq "$runs"); do
      s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
      echo "$e - $s" | bc -l
    done | median
  fi
}

echo "| file | lines | clang++-19 -fsyntax-only (s) | irregfix (s) | ratio |"
echo "|---|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file extra <<< "$c"
  # shellcheck disable=SC2206
  extra_args=($extra)
  "$clang" -fsyntax-only "${flags[@]}" "${extra_args[@]}" "$file" 2> /dev/null ||
    { echo "tool_speed: clang++ does not parse $file" >&2; exit 1; }
  "$tool" --quiet "--cuda-path=$cuda" "$file" -- "${extra_args[@]}" > /dev/null ||
    { echo "tool_speed: irregfix fails on $file" >&2; exit 1; }
  parse=$(time_cmd "$clang" -fsyntax-only "${flags[@]}" "${extra_args[@]}" "$file")
  fix=$(time_cmd "$tool" --quiet "--cuda-path=$cuda" "$file" -- "${extra_args[@]}")
  printf '| %s | %d | %.3f | %.3f | %.2fx |\n' "$name" "$(wc -l < "$file")" "$parse" "$fix" \
         "$(echo "$fix / $parse" | bc -l)"
done
