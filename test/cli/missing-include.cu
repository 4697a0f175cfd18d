// A missing include is Clang's fatal error, exit 1, and no output file.
// RUN: rm -f %t.out
// RUN: not %irregfix %s -o %t.out -- %stub 2>&1 | FileCheck %s
// RUN: not ls %t.out
#include <cuda_runtime.h>
#include "no-such-header.cuh"
__global__ void g(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
// CHECK: missing-include.cu:6:10: fatal error: 'no-such-header.cuh' file not found
// CHECK: irregfix: error: '{{.*}}missing-include.cu' has errors; nothing was written
