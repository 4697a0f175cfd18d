// The loop variable is used as a value, so it is rebound from the row start.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void weighted(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k] * (k - B[t]);
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void weighted_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      { const int k = static_cast<int>(B[t] + __irregfix_iter0); s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)] * (k - B[t]); }

__global__ void braced(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (k % 2 == 0)
        s += A[k];
    }
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void braced_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0) { const int k = static_cast<int>(B[t] + __irregfix_iter0);
// CHECK-NEXT:        if (k % 2 == 0)
// CHECK-NEXT:          s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
