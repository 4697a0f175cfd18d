// A site irregfix must leave alone: 'A' is written in the kernel
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) A[t] = A[B[t]] + 1;
}
// CHECK: remark: {{.*}} not transformed: 'A' is written in the kernel
