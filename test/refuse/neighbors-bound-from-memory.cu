// A site irregfix must leave alone: the loop bound is neither computable from the kernel's arguments nor counts[t]
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *nb, const int *counts, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < counts[0]; j++)
      s += A[nb[j * n + t]];
    y[t] = s;
  }
}
// CHECK: remark: neighbors site in 'k' not transformed: the loop bound is neither computable from the kernel's arguments nor counts[t]
