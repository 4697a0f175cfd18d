// A site irregfix must leave alone: a kernel template with a function
// parameter pack (the launcher mirrors the kernel's parameters one by one).
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

template <class... Ts>
__global__ void k(int n, const int *B, const float *A, float *y, Ts... extra) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}

void run(int n, const int *B, const float *a, float *y) { k<<<1, 32>>>(n, B, a, y, 1, 2.0); }
// CHECK: remark: gather site in 'k' not transformed: kernel templates with a function parameter pack are not supported
