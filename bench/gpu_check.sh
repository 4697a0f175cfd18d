#!/usr/bin/env bash
# Every GPU check that needs no Clang, over binaries built elsewhere (a build
# directory after `cmake --build` and the lit tests, which leave the e2e
# programs in test/e2e/Output), for a GPU machine without the toolchain:
#   - the GPU test programs (test/gpu/*_gpu_tests) under IRREGFIX_VERIFY=1;
#   - each e2e program (*-main.cu.tmp.exe) against its own run under
#     IRREGFIX_DISABLE=1, under auto, every forced layout, VERIFY, and the
#     domain forced under VERIFY (scatter programs with IRREGFIX_DETERMINISTIC=1);
#   - the indexed shapes and the channels, by test/channels/compare.sh;
#   - the samples' checksums under IRREGFIX_VERIFY=1 against their originals.
# A line a check, written as it runs (so that a run cut short keeps what it
# did), then a count. Exit 0: every check passed; 1: one failed; 77: no device.
#
#   bench/gpu_check.sh BUILD_DIR [LOG]      (LOG: also written there)
set -u
build=${1:?usage: bench/gpu_check.sh BUILD_DIR [LOG]}
log=${2:-/dev/null}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 passed=0
say() { echo "$*" | tee -a "$log"; }
result() { # name, ok (0/1), detail
  if [ "$2" = 0 ]; then passed=$((passed + 1)); say "ok    $1 $3"; else failed=$((failed + 1)); say "FAIL  $1 $3"; fi
}

"$build/samples/cg/cg_original" --matrix grid --iters 1 >/dev/null 2>&1
[ $? -eq 77 ] && { say "gpu_check: no CUDA device"; exit 77; }
say "gpu_check: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"

for t in "$build"/test/gpu/*_gpu_tests; do
  [ -x "$t" ] || continue
  out=$(IRREGFIX_VERIFY=1 timeout 600 "$t" 2>&1)
  rc=$?
  result "$(basename "$t")" $((rc != 0)) "$(echo "$out" | grep -E '^\[  (PASSED|FAILED|SKIPPED)  ?\]' | head -n 3 | tr '\n' ' ')"
done

modes=("" "IRREGFIX_LAYOUT=ell" "IRREGFIX_LAYOUT=sell32" "IRREGFIX_LAYOUT=sell32s" "IRREGFIX_LAYOUT=locality"
       "IRREGFIX_LAYOUT=lanes" "IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1" "IRREGFIX_DOMAIN=1 IRREGFIX_VERIFY=1")
for x in "$build"/test/e2e/Output/*-main.cu.tmp.exe; do
  [ -x "$x" ] || continue
  name=$(basename "$x" .cu.tmp.exe)
  extra=""
  case $name in scatter*) extra="IRREGFIX_DETERMINISTIC=1" ;; esac
  if ! env IRREGFIX_DISABLE=1 timeout 300 "$x" "$work/original.bin" >/dev/null 2>"$work/err"; then
    result "$name" 1 "(the original run failed: $(tail -c 200 "$work/err" | tr '\n' ' '))"
    continue
  fi
  for mode in "${modes[@]}"; do
    rm -f "$work/mode.bin"
    # shellcheck disable=SC2086
    env $extra $mode timeout 300 "$x" "$work/mode.bin" >/dev/null 2>"$work/err" && cmp -s "$work/original.bin" "$work/mode.bin"
    rc=$?
    result "$name [${mode:-auto}]" $((rc != 0)) "$([ $rc != 0 ] && tail -c 200 "$work/err" | tr '\n' ' ')"
  done
done

for pair in indexed/indexed_shapes channels/channels; do
  orig="$build/test/${pair}_original" xform="$build/test/$pair"
  if [ ! -x "$orig" ] || [ ! -x "$xform" ]; then continue; fi
  sh "$root/test/channels/compare.sh" "$orig" "$xform" "$work/$(basename "$pair")" > "$work/compare" 2>&1
  rc=$?
  result "$(basename "$pair")" $((rc != 0)) "($(grep -c bit-identical "$work/compare") cases bit-identical$(grep -v bit-identical "$work/compare" | head -n 3 | tr '\n' ' '))"
done

checksum() { grep -o "checksum: [0-9a-f]*"; }
sample() { # name, binary folder, arguments...
  local name=$1 dir=$2
  shift 2
  local want got
  want=$("$build/samples/$dir/${dir}_original" "$@" 2>/dev/null | checksum)
  got=$(IRREGFIX_VERIFY=1 "$build/samples/$dir/$dir" "$@" 2>"$work/err" | checksum)
  local same=1
  if [ -n "$want" ] && [ "$want" = "$got" ]; then same=0; fi
  result "sample $name" "$same" "($got)"
}
for m in grid fem-shuffled offshore long-rows; do sample "cg $m" cg --matrix "$m" --iters 50; done
sample "md random" md --atoms 12288 --steps 100
sample "md by cell" md --atoms 12288 --steps 100 --sorted
sample graph graph
sample sp sp

say "gpu_check: $passed passed, $failed failed"
[ $failed = 0 ]
