// Kernels in a namespace, two kernels in one file, a second site in one kernel,
// and a kernel with nothing to do are all handled; the launcher lives beside its kernel.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

namespace solver {

__global__ void two_sites(int n, const int *B, const float *A, const int *C, const float *D, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s = 0;
  for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
  for (int j = C[t]; j < C[t + 1]; ++j) s -= D[j];
  y[t] = s;
}
// CHECK: __global__ void two_sites_irregfix(int n, const int *B, const float *A, const int *C, const float *D, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, irregfix::View __irregfix_v1, const float *__restrict__ __irregfix_v1_D, const unsigned __irregfix_block_offset) {
// CHECK:   for (int __irregfix_iter1 = 0, __irregfix_len1 = irregfix::length(__irregfix_v1, t); __irregfix_iter1 < __irregfix_len1; ++__irregfix_iter1) s -= __irregfix_v1_D[irregfix::slot(__irregfix_v1, t, __irregfix_iter1)];

__global__ void axpy(int n, float a, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] += a * x[t];
}
// CHECK-NOT: axpy_irregfix

__global__ void pick(int n, const unsigned *map, const double *v, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = v[map[t]];
}
// CHECK: __global__ void pick_irregfix(int n, const unsigned *map, const double *v, double *out, irregfix::View __irregfix_v0, const double *__restrict__ __irregfix_v0_v, const unsigned __irregfix_block_offset) {

void step(int n, const int *B, const float *A, const int *C, const float *D, float *y, const unsigned *map, const double *v, double *out) {
  two_sites<<<n / 32 + 1, 32>>>(n, B, A, C, D, y);
  axpy<<<n / 32 + 1, 32>>>(n, 2.0f, A, y);
  pick<<<n / 32 + 1, 32>>>(n, map, v, out);
}
// CHECK-LABEL: void step({{.*}}
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("namespace-and-two-kernels.cu:32");
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    two_sites_irregfix_launch(n / 32 + 1, 32, 0, 0, n, B, A, C, D, y);
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    axpy<<<n / 32 + 1, 32>>>(n, 2.0f, A, y);
// CHECK-NEXT:    irregfix_invalidate(out);
// CHECK-NEXT:    pick_irregfix_launch(n / 32 + 1, 32, 0, 0, n, map, v, out);

} // namespace solver
