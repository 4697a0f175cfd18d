// A site irregfix must leave alone: the loop variable 'j' is written in the loop body
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *nb, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < 16; j++) {
      s += A[nb[j * n + t]];
      if (s > 100.f) j += 2;
    }
    y[t] = s;
  }
}
// CHECK: remark: neighbors site in 'k' not transformed: the loop variable 'j' is written in the loop body
