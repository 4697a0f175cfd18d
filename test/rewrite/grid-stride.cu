// A grid-stride loop: its variable takes each index in [0, n) once, and its
// condition is the guard. `continue` in the body is fine for the in-kernel loop.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void relax(int n, const int *skip, const int *B, const float *A, float *y) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += blockDim.x * gridDim.x) {
    if (skip[e])
      continue;
    float s = 0;
    for (int k = B[e]; k < B[e + 1]; ++k)
      s += A[k];
    y[e] = s;
  }
}
// CHECK-LABEL: __global__ void relax_irregfix(int n, const int *skip, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A) {
// CHECK:           for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, e); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:        s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, e, __irregfix_iter0)];
// CHECK:         irregfix::prepare_range(__irregfix_site_relax_0, B, irregfix::index_kind(B), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream)) {

// A loop that strides by something else is not a grid-stride loop: several
// threads visit each e. The range pattern leaves it; an indexed site copies
// each launched thread's walk, the inner loop's iterations counted one after
// the other across the outer loop's (a ragged nest).
__global__ void half(int n, const int *B, const float *A, float *y) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += blockDim.x) {
    float s = 0;
    for (int k = B[e]; k < B[e + 1]; ++k)
      s += A[k];
    y[e] = s;
  }
}
// CHECK-LABEL: __global__ void half_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A_0) {
// CHECK-NEXT:    { long long __irregfix_base0 = 0; for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += blockDim.x) {
// CHECK-NEXT:      float s = 0;
// CHECK-NEXT:      { const long long __irregfix_first0_1 = (long long)(B[e]); const long long __irregfix_end0_1 = (long long)(B[e + 1]); const long long __irregfix_trips0_1 = __irregfix_end0_1 > __irregfix_first0_1 ? __irregfix_end0_1 - __irregfix_first0_1 : 0; __irregfix_base0 += __irregfix_trips0_1; for (int k = B[e]; k < B[e + 1]; ++k)
// CHECK-NEXT:        s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), (__irregfix_base0 - __irregfix_trips0_1 + (k - __irregfix_first0_1)))]; }
// CHECK-NEXT:      y[e] = s;
// CHECK-NEXT:    } }
// CHECK:         for (long long __irregfix_at0 = 0; __irregfix_at0 < __irregfix_trips && __irregfix_count < 0x7fffffffLL; ++__irregfix_at0) {
// CHECK:         for (long long __irregfix_at1 = 0; __irregfix_at1 < __irregfix_trips1 && __irregfix_iter < __irregfix_len; ++__irregfix_at1, ++__irregfix_iter) {
