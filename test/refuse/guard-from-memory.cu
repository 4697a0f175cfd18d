// A site irregfix must leave alone: the guard bound is not computable from the kernel's arguments
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int *count, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count[0]) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: {{.*}} not transformed: the guard bound is not computable from the kernel's arguments
