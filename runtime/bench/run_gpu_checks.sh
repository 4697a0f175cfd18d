#!/usr/bin/env bash
# Builds the runtime, its tests and the remap benchmark on a GPU machine and runs
# them: ctest (host + GPU tests), the GPU tests under compute-sanitizer memcheck,
# an IRREGFIX_STATS report, the host cost of a cached launch, the cost of the first remap (lazy module loads), the remap bandwidth benchmark, and the SpMV benchmark
# (ELL vs SELL-32 vs the original; SPMV_ARGS=--small for 1/8 of the rows).
#   runtime/bench/run_gpu_checks.sh   (from the repo root; BUILD_DIR default /tmp/b;
#   BENCH_ARGS=--new runs only the range2 and neighbour benchmarks; QUICK=1 skips both benchmarks)
# GoogleTest: uses an installed one, or builds the sources in $GTEST_SRC
# (default ./build-gtest-src, a copy of Debian's /usr/src/googletest).
set -u -o pipefail
B=${BUILD_DIR:-/tmp/b}
GTEST_SRC=${GTEST_SRC:-build-gtest-src}
EXTRA=()
if [ -d "$GTEST_SRC" ]; then
  cmake -S "$GTEST_SRC" -B /tmp/gtest-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX=/tmp/gtest -DBUILD_GMOCK=OFF >/tmp/gtest.log 2>&1 &&
    cmake --build /tmp/gtest-build >>/tmp/gtest.log 2>&1 &&
    cmake --install /tmp/gtest-build >>/tmp/gtest.log 2>&1 || { tail -20 /tmp/gtest.log; exit 1; }
  EXTRA+=(-DCMAKE_PREFIX_PATH=/tmp/gtest)
fi
nvidia-smi -L || true
cmake -S . -B "$B" -G Ninja -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_BUILD_SAMPLES=OFF \
  -DIRREGFIX_BUILD_TESTS=ON "${EXTRA[@]}" >/tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
cmake --build "$B" --target irregfix_runtime irregfix_runtime_host_tests irregfix_runtime_gpu_tests irregfix_hoist_gpu_tests irregfix_sharing_gpu_tests \
  irregfix_soundness_gpu_tests irregfix_verify_gpu_tests irregfix_remap_bench irregfix_spmv_bench irregfix_launch_overhead_bench irregfix_module_load_bench 2>&1 | grep -Ev '^\[' || true
status=0
echo "=== ctest"
ctest --test-dir "$B" --output-on-failure || status=1
echo "=== compute-sanitizer memcheck (GPU tests)"
if command -v compute-sanitizer >/dev/null; then
  compute-sanitizer --tool memcheck --show-backtrace no --error-exitcode 9 \
    "$B/test/gpu/irregfix_runtime_gpu_tests" --gtest_brief=1 >/tmp/memcheck.log 2>&1 || status=1
  grep -E '^========= (Invalid|Program hit|ERROR SUMMARY|Target)' /tmp/memcheck.log | sort | uniq -c | head -20
  grep -E 'PASSED|FAILED' /tmp/memcheck.log | head
  for check in memcheck racecheck; do
    compute-sanitizer --tool $check --show-backtrace no --error-exitcode 9 \
      "$B/test/gpu/irregfix_hoist_gpu_tests" --gtest_brief=1 >/tmp/hoist-$check.log 2>&1 || status=1
    echo "hoist GPU tests under $check: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/hoist-$check.log | head -1)" \
      "$(grep -E 'PASSED|FAILED' /tmp/hoist-$check.log | head -3 | tr '\n' ' ')"
  done
  # The sharing tests' kernels stage their copy in shared memory: racecheck and synccheck too.
  for check in memcheck racecheck synccheck; do
    compute-sanitizer --tool $check --show-backtrace no --error-exitcode 9 \
      "$B/test/gpu/irregfix_sharing_gpu_tests" --gtest_brief=1 \
      --gtest_filter=-Sharing.SetsOverTheSharedMemoryFallBack >/tmp/sharing-$check.log 2>&1 || status=1
    echo "sharing GPU tests under $check: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/sharing-$check.log | head -1)" \
      "$(grep -E 'PASSED|FAILED' /tmp/sharing-$check.log | head -3 | tr '\n' ' ')"
  done
  # Managed memory, __device__ variables, and the fingerprints of IRREGFIX_VERIFY
  # (the death tests' children abort by design: left out).
  for t in soundness verify; do
    compute-sanitizer --tool memcheck --show-backtrace no --error-exitcode 9 \
      "$B/test/gpu/irregfix_${t}_gpu_tests" --gtest_brief=1 --gtest_filter=-*DeathTest* >/tmp/$t-memcheck.log 2>&1 || status=1
    echo "$t GPU tests under memcheck: $(grep -E 'ERROR SUMMARY' /tmp/$t-memcheck.log | head -1)" \
      "$(grep -E 'PASSED|FAILED' /tmp/$t-memcheck.log | head -3 | tr '\n' ' ')"
  done
fi
echo "=== IRREGFIX_STATS=1 report (at exit of one GPU test)"
IRREGFIX_STATS=1 "$B/test/gpu/irregfix_runtime_gpu_tests" --gtest_filter=Runtime.KernelThroughView \
  --gtest_brief=1 2>&1 | tail -8
echo "=== host cost of a cached launch"
"$B/runtime/irregfix_launch_overhead_bench" || status=1
echo "=== the first remap: lazy module loading"
for loading in LAZY EAGER; do
  for busy in "" --behind-busy; do
    CUDA_MODULE_LOADING=$loading "$B/runtime/irregfix_module_load_bench" $busy || status=1
  done
done
if command -v cuobjdump >/dev/null; then
  for o in "$B"/runtime/CMakeFiles/irregfix_runtime.dir/src/*.cu.o; do
    echo "$(basename "$o"): $(cuobjdump -sass "$o" 2>/dev/null | grep -c 'Function :') kernels, $(stat -c %s "$o") bytes"
  done
fi
if [ -z "${QUICK:-}" ]; then
  echo "=== remap bandwidth"
  "$B/runtime/irregfix_remap_bench" ${BENCH_ARGS:-} || status=1
  echo "=== SpMV through the View: ELL vs SELL-32 vs the original CSR kernel"
  "$B/runtime/irregfix_spmv_bench" ${SPMV_ARGS:-} || status=1
fi
exit $status
