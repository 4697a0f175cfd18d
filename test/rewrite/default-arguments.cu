// Default arguments of a kernel's parameters are left out of the transformed
// kernel: the parameters it adds after them have none, and its launcher passes
// every argument. Defaults inherited from an earlier declaration are not in
// the definition's text to begin with.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>

__global__ void scaled(int n, const int *B, const float *A, float *y, float scale = 1.0f, int /*unused*/ = 0) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = scale * A[B[t]];
}
__global__ void later(int n, const int *B, const float *A, float *y, float scale = 2.0f);
__global__ void later(int n, const int *B, const float *A, float *y, float scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = scale * A[B[t]];
}
void run(int n, const int *B, const float *a, float *y) {
  scaled<<<1, 32>>>(n, B, a, y, 2.0f, 1);
  later<<<1, 32>>>(n, B, a, y, 3.0f);
}
// CHECK: __global__ void scaled_irregfix(int n, const int *B, const float *A, float *y, float scale, int /*unused*/, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK: __global__ void later_irregfix(int n, const int *B, const float *A, float *y, float scale, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
