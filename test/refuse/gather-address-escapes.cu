// A site irregfix must leave alone: the address of A[B[t]] is taken, and the
// pointer it starts is stepped (one never changed is followed: its reads are
// A's at B[t] + c, indexed-local-pointer-into-array.cu).
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const float *p = &A[B[t]];
    float first = *p++;
    y[t] = first + *p;
  }
}
// CHECK: remark: gather site in 'k' not transformed: the address of A[B[t]] is taken or it is written
