// A data-dependent row (t = order[gid]) read for threads the guard does not bound.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *order, const int *B, const float *A, float *y) {
  int t = order[blockIdx.x * blockDim.x + threadIdx.x];
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: range2 site in 'k' not transformed: no guard 'if (t < n)' or 'if (t >= n) return' bounds the thread index
