// A site irregfix must leave alone: the kernel writes through a pointer it assigns
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y, float *z, int which) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float *out = y;
  if (which) out = z;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    out[t] = s;
  }
}
// CHECK: remark: {{.*}} not transformed: the kernel may write memory the analysis cannot name: stores through 'out', a pointer assigned in the function
