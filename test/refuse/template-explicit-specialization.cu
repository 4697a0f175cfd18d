// A site irregfix must leave alone: an explicit specialization of a kernel
// template (its transformed copy would specialize a template that is not there).
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

template <class T>
__global__ void k(int n, const int *B, const T *A, T *y);

template <>
__global__ void k<double>(int n, const int *B, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = 2 * A[B[t]];
}

void run(int n, const int *B, const double *a, double *y) { k<<<1, 32>>>(n, B, a, y); }
// CHECK: remark: gather site in 'k' not transformed: explicit specializations of kernel templates are not supported
