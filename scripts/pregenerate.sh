#!/usr/bin/env bash
# Rewrites the samples (CG, SP, MD), the benchmark kernel and the e2e test with this tree's
# irregfix into .devgen/, for a GPU machine that has nvcc but no Clang 19:
# there, configure with -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_REWRITTEN_DIR=$PWD/.devgen.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${IRREGFIX:-build/tool/irregfix}
out=.devgen
mkdir -p "$out"
"$tool" --quiet samples/cg/cg.cu -o "$out/cg.irregfix.cu" -- -Isamples/cg
"$tool" --quiet samples/sp/sp.cu -o "$out/sp.irregfix.cu" -- -Isamples/sp
"$tool" --quiet samples/md/md.cu -o "$out/md.irregfix.cu" -- -Isamples/md
# The same samples with their loops hoisted (--hoist), for bench/run_device_hoist.sh.
"$tool" --quiet --hoist samples/cg/cg.cu -o "$out/cg.hoist.irregfix.cu" -- -Isamples/cg
"$tool" --quiet --hoist samples/sp/sp.cu -o "$out/sp.hoist.irregfix.cu" -- -Isamples/sp
"$tool" --quiet --hoist samples/md/md.cu -o "$out/md.hoist.irregfix.cu" -- -Isamples/md
"$tool" --quiet bench/spmv_kernel.cu -o "$out/spmv_kernel.irregfix.cu" -- -Ibench -DSPMV_NS=irregfixed
"$tool" --quiet test/e2e/spmv-main.cu -o "$out/spmv-main.irregfix.cu"
"$tool" --quiet test/channels/channels.cu -o "$out/channels.irregfix.cu" -- -Itest/channels
ls -la "$out"
