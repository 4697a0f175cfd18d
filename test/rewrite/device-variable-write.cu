// A kernel that stores to a __device__ variable keeps its site: the launcher
// checks at each launch that the variable is not in the memory of an array the
// site reads (a program may pass its address), and its launches invalidate
// copies of the variable by address.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s

#include <cuda_runtime.h>

namespace stats {
__device__ int visited;
}

__global__ void count_gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = a[idx[t]];
    atomicAdd(&stats::visited, 1);
  }
}
// CHECK: irregfix::disjoint_symbol(__irregfix_site_count_gather_0, &::stats::visited, idx) &&
// CHECK-NEXT: irregfix::disjoint_symbol(__irregfix_site_count_gather_0, &::stats::visited, a) &&

void run(int n, const int *idx, const float *a, float *out) {
  count_gather<<<n / 64 + 1, 64>>>(n, idx, a, out);
}
// CHECK-LABEL: void run(int n, const int *idx, const float *a, float *out) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("device-variable-write.cu:23");
// CHECK-NEXT:    irregfix_invalidate(out); irregfix_invalidate_symbol(&::stats::visited);
// CHECK-NEXT:    count_gather_irregfix_launch(n / 64 + 1, 64, 0, 0, n, idx, a, out);
