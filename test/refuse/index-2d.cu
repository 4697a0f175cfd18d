// A site irregfix must leave alone: the index of 'B' is not the 1-D global thread index
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.y * blockDim.y + threadIdx.y;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: {{.*}} not transformed: the index of 'B' is not the 1-D global thread index
