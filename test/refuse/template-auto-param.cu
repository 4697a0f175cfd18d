// A site irregfix must leave alone: an abbreviated kernel template (an 'auto'
// parameter, C++20) has no template parameter the launcher could name.
// RUN: %irregfix %s -- %stub -std=c++20 > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, auto A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}

void run(int n, const int *B, const float *a, float *y) { k<<<1, 32>>>(n, B, a, y); }
// CHECK: remark: range site in 'k' not transformed: kernel templates with 'auto' parameters are not supported
