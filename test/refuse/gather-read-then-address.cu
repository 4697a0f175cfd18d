// A site irregfix must leave alone: A[B[t]] is read, and later its address is
// taken. The whole site is refused, and the kernel is left exactly as it was.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__device__ float peek(const float *p) { return *p; }

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[t]] + peek(&A[B[t]]);
}
// CHECK: remark: gather site in 'k' not transformed: the address of A[B[t]] is taken or it is written

void run(int n, const int *B, const float *A, float *y) { k<<<n / 128 + 1, 128>>>(n, B, A, y); }
