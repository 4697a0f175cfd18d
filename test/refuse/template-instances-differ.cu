// A site irregfix must leave alone: one instantiation of the kernel template
// writes the array the other reads (T = const float vs float), so one rewrite
// of the template cannot serve both.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__device__ void touch(const float *) {}
__device__ void touch(float *p) { p[0] = 0; }

template <class P>
__global__ void k(int n, const int *B, P A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
    touch(A);
  }
}

void run(int n, const int *B, const float *a, float *b, float *y) {
  k<<<1, 32>>>(n, B, a, y);
  k<<<1, 32>>>(n, B, b, y);
}
// CHECK: remark: range site in 'k' not transformed: the kernel template's instantiations differ in what can be transformed
