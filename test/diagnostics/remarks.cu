// One remark per site at the site, notes for alias checks and arrays left alone,
// and nothing else.
// RUN: %irregfix %s -- %stub 2>&1 >/dev/null | FileCheck %s -implicit-check-not="{{remark|warning|error|note}}:"
#include <cuda_runtime.h>

__global__ void mixed(int n, const int *B, const float *A, float *W, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
// CHECK: remarks.cu:[[@LINE-1]]:5: remark: range site in 'mixed' transformed: 'A' read through a coalesced copy indexed by 'B'
      s += A[k] * W[k];
      W[k] = 0;
// CHECK: remarks.cu:[[@LINE-2]]:19: note: 'W' is left as is: 'W' is written in the kernel
    }
    y[t] = s;
  }
}
// CHECK: remarks.cu:6:{{[0-9]+}}: note: 'W' is written and may alias 'B', 'A': checked at each launch
// CHECK: remarks.cu:6:{{[0-9]+}}: note: 'y' is written and may alias 'B', 'A': checked at each launch
// CHECK: remarks.cu:6:{{[0-9]+}}: remark: threads of 'mixed' may be permuted (SELL-32-sigma regroups rows by length)
// CHECK: remarks.cu:6:{{[0-9]+}}: note: rows of 'mixed' run one thread each (no warp-cooperative rows): the loop stores to memory ('W[k]')

__global__ void two_d(int n, const int *B, const float *A, float *y) {
  int t = threadIdx.y;
  if (t < n) y[t] = A[B[t]];
// CHECK: remarks.cu:[[@LINE-1]]:21: remark: gather site in 'two_d' not transformed: the index of 'B' is not the 1-D global thread index (blockIdx.x * blockDim.x + threadIdx.x)
}
