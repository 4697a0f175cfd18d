// A[B[C[t]]] is one two-level gather (B[C[t]] is not a site of its own), and
// reads through __ldg(&A[k]) are redirected inside the __ldg.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void twice(int n, const int *B, const int *C, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[C[t]]];
}
// CHECK-LABEL: __global__ void twice_irregfix(int n, const int *B, const int *C, const double *A, double *y, irregfix::View __irregfix_v0, const double *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK:           y[t] = __irregfix_v0_A[irregfix::gather_slot(__irregfix_v0, t)];
// CHECK:         if (irregfix::begin_launch(__irregfix_site_twice_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:             irregfix::disjoint(__irregfix_site_twice_0, y, B) &&
// CHECK:             irregfix::prepare_gather2(__irregfix_site_twice_0, B, irregfix::index_kind(B), C, irregfix::index_kind(C), (long long)(n), A, sizeof(*A), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_twice_0, __irregfix_stream, &__irregfix_chunks)) {

__global__ void spmv_ldg(int n, const int *__restrict__ rp, const float *__restrict__ v, float *__restrict__ y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = __ldg(&rp[t]); k < __ldg(&rp[t + 1]); ++k)
      s += __ldg(&v[k]);
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void spmv_ldg_irregfix(int n, const int *__restrict__ rp, const float *__restrict__ v, float *__restrict__ y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_v, const unsigned __irregfix_block_offset) {
// CHECK:           s += __ldg(&__irregfix_v0_v[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)]);
