// A site irregfix must leave alone: a kernel that is a static class member.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Solver {
  static __global__ void k(int n, const int *B, const float *A, float *y) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) y[t] = A[B[t]];
  }
};
// CHECK: remark: gather site in 'k' not transformed: the kernel is a class member
