// Code that does not parse: clang's error, exit 1, and no output file.
// RUN: rm -f %t.out
// RUN: not %irregfix %s -o %t.out -- %stub 2>&1 | FileCheck %s
// RUN: not ls %t.out
#include <cuda_runtime.h>
__global__ void broken(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x
  if (t < n) y[t] = A[B[t]];
}
// CHECK: parse-error.cu:7:48: error: expected ';' at end of declaration
// CHECK: irregfix: error: '{{.*}}parse-error.cu' has errors; nothing was written
