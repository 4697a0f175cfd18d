// A construct Clang does not know (an intrinsic from a newer toolkit) is an
// error with its location; -i leaves the file untouched.
// RUN: cp %s %t.cu
// RUN: not %irregfix -i %t.cu -- %stub 2>&1 | FileCheck %s
// RUN: diff %s %t.cu
#include <cuda_runtime.h>
__global__ void g(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = __future_intrinsic(A[B[t]]);
}
// CHECK: {{.*}}.cu:9:21: error: use of undeclared identifier '__future_intrinsic'
// CHECK: irregfix: error: '{{.*}}' has errors; nothing was written
