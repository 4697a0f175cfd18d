// nvcc's __nv_atomic_* builtins and their __NV_ATOMIC_* memory orders, which
// the toolkit declares only for nvcc: a kernel that uses them parses, and its
// indirect read is rewritten. The atomic itself stays as written.
// REQUIRES: nvcc
// RUN: %irregfix_real %s -o %t.cu -- -std=c++17 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.cu
#include <cuda_runtime.h>

__device__ long long relaxed_read(long long *at) {
  return __nv_atomic_load_n(at, __NV_ATOMIC_RELAXED);
}

__global__ void tally(int n, const int *slot, const float *weight, float *out, long long *seen,
                      unsigned *count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = weight[slot[t]] + (float)relaxed_read(seen);
// REMARK: nv-atomics.cu:[[@LINE-1]]:14: remark: gather site in 'tally' transformed
    __nv_atomic_fetch_add(count, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  }
}

void run(int n, const int *slot, const float *weight, float *out, long long *seen, unsigned *count) {
  tally<<<(n + 255) / 256, 256>>>(n, slot, weight, out, seen, count);
}
// CHECK: __nv_atomic_fetch_add(count, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK: tally_irregfix_launch(
