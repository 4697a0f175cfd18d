// A site irregfix must leave alone: the index of 'B' is not the 1-D global thread index (blockIdx.x * blockDim.x + threadIdx.x)
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t + 1]];
}
// CHECK: remark: gather site in 'k' not transformed: the index of 'B' is not the 1-D global thread index (blockIdx.x * blockDim.x + threadIdx.x)
