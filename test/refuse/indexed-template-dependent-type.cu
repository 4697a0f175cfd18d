// An indexed site whose index has a type of the kernel template's parameters:
// its index kernels, written once for every instantiation, cannot name it.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

template <class I>
__global__ void k(I n, const I *B, const float *A, float *y) {
  I t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t + 1]];
}

void run(int n, const int *B, const float *a, float *y, long long m, const long long *C) {
  k<<<4, 32>>>(n, B, a, y);
  k<<<4, 32>>>(m, C, a, y);
}
// CHECK: remark: {{.*}}not transformed: its index kernels cannot be written: a type depends on the kernel template's parameters
