// A local pointer with an offset (`a = A + 1`) reads other elements than A[k]:
// redirecting a[k] to A's copy would be wrong, so the loop has no remappable read.
// An exact copy (`b = B0`) is followed.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B0, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int *B = B0;
  const float *a = A + 1;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += a[k];
    y[t] = s;
  }
}
// CHECK: remark: range site in 'k' not transformed: no array is read as A[k] in the loop
