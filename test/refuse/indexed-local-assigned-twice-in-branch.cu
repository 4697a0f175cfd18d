// A local assigned twice in one branch, or in a loop before its read: no
// single value to compute outside the kernel.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void twice(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r = t + 2;
  if (t % 3 == 0) {
    r = t;
    r = r + 1;
  }
  if (t < n) y[t] = A[B[r]];
}
// CHECK: remark: indirect read of 'B' in 'twice' not rewritten: its index cannot be computed outside the kernel: local 'r' is assigned in the kernel

__global__ void looped(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r = t;
  for (int i = 0; i < 3; ++i)
    r = B[r];
  if (t < n) y[t] = A[B[r]];
}
// CHECK: remark: indirect read of 'B' in 'looped' not rewritten: its index cannot be computed outside the kernel: local 'r' is assigned in the kernel

void run(int n, const int *B, const float *A, float *y) {
  twice<<<1, 32>>>(n, B, A, y);
  looped<<<1, 32>>>(n, B, A, y);
}
