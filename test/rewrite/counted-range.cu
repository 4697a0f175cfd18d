// The counted form on one level, with the counter used as a value: it is
// rebound to the iteration. Also the element form over a two-level row.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void weighted(int n, const long long *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int i = 0; i < B[t + 1] - B[t]; ++i)
      s += A[i + B[t]] * i;
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void weighted_irregfix(int n, const long long *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:    const long long __irregfix_p = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    int t = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      { const int i = static_cast<int>(__irregfix_iter0); s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)] * i; }

__global__ void permuted(int n, const int *perm, const int *B, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  double s = 0;
  for (int k = B[perm[t]]; k < B[perm[t] + 1]; ++k)
    s += A[k] * (k - B[perm[t]]);
  y[t] = s;
}
// CHECK-LABEL: __global__ void permuted_irregfix(int n, const int *perm, const int *B, const double *A, double *y, irregfix::View __irregfix_v0, const double *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, t); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      { const int k = static_cast<int>(B[perm[t]] + __irregfix_iter0); s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, t, __irregfix_iter0)] * (k - B[perm[t]]); }
// CHECK:         irregfix::prepare_range2(__irregfix_site_permuted_0, B, irregfix::index_kind(B), perm, irregfix::index_kind(perm), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_permuted_0, __irregfix_stream, &__irregfix_chunks)) {
