// A site irregfix must leave alone: 'C' is written in the kernel
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, int *C, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int r = C[t];
    float s = 0;
    for (int i = 0; i < B[r + 1] - B[r]; i++) s += A[B[r] + i];
    C[t] = 0;
    y[t] = s;
  }
}
// CHECK: remark: range2 site in 'k' not transformed: 'C' is written in the kernel
