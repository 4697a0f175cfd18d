// A site irregfix must leave alone: the kernel template is not instantiated in this file
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

template <class T>
__global__ void k(int n, const int *B, const T *A, T *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    T s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: {{.*}} not transformed: the kernel template is not instantiated in this file
