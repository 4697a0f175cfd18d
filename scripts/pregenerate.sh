#!/usr/bin/env bash
# Rewrites the samples (CG, SP, MD, graph; also with --hoist; CG also with --reassociate), the e2e
# programs and the GPU tests' rewritten kernels with this tree's irregfix
# into .devgen/, and copies GoogleTest's sources there, for a GPU machine that has nvcc but no
# Clang 19 (and perhaps no GoogleTest): carry .devgen/ there and run bench/run.sh, which configures
# with -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_REWRITTEN_DIR=$PWD/.devgen.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${IRREGFIX:-build/tool/irregfix}
out=.devgen
mkdir -p "$out" "$out/hoist" "$out/reassociate"
for s in cg sp md graph; do
  "$tool" --quiet "samples/$s/$s.cu" -o "$out/$s.irregfix.cu" -- "-Isamples/$s"
  # The same samples with their loops hoisted (--hoist): bench/run.sh's hoist part.
  "$tool" --quiet --hoist "samples/$s/$s.cu" -o "$out/hoist/$s.irregfix.cu" -- "-Isamples/$s"
done
# CG with its float row sums allowed to run with several lanes a row (cg_reassociated).
"$tool" --quiet --reassociate samples/cg/cg.cu -o "$out/reassociate/cg.irregfix.cu" -- -Isamples/cg
"$tool" --quiet --reassociate test/gpu/lanes_kernels.cu -o "$out/lanes_kernels.irregfix.cu" -- -Itest/gpu
"$tool" --quiet test/gpu/lanes_in_order_kernels.cu -o "$out/lanes_in_order_kernels.irregfix.cu" -- -Itest/gpu
"$tool" --quiet test/e2e/spmv-main.cu -o "$out/spmv-main.irregfix.cu"
"$tool" --quiet test/e2e/scatter-main.cu -o "$out/scatter-main.irregfix.cu"
"$tool" --quiet test/channels/channels.cu -o "$out/channels.irregfix.cu" -- -Itest/channels
"$tool" --quiet test/indexed/shapes.cu -o "$out/shapes.irregfix.cu" -- -Itest/indexed
if [ -d /usr/src/googletest ]; then
  rm -rf "$out/googletest" && cp -r /usr/src/googletest "$out/googletest"
fi
ls -la "$out" "$out/hoist" "$out/reassociate"
