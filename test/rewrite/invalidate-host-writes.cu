// Host writes to device memory get an invalidation before them: cudaMemcpy/
// cudaMemset destinations (also inside error-check macros and unbraced ifs) and
// launches of kernels that write a pointer argument; cudaFree gets irregfix_release.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

#define CHECK(call) do { if ((call) != cudaSuccess) return 1; } while (0)

__global__ void spmv(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}

__global__ void scale(int m, float *v, const float *by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    v[i] *= by[0];
}

int run(int n, int nnz, const int *h_rp, const float *h_val, int *rp, int *col, float *val, float *x, float *y, bool reset) {
  CHECK(cudaMemcpy(rp, h_rp, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  cudaMemcpyAsync(val, h_val, nnz * sizeof(float), cudaMemcpyHostToDevice, 0);
  if (reset)
    cudaMemset(col, 0, nnz * sizeof(int));
  scale<<<nnz / 256 + 1, 256>>>(nnz, val, x);
  spmv<<<n / 256 + 1, 256>>>(n, rp, col, val, x, y);
  CHECK(cudaFree(val));
  return 0;
}
// CHECK-LABEL: int run(int n, int nnz, const int *h_rp, const float *h_val, int *rp, int *col, float *val, float *x, float *y, bool reset) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("invalidate-host-writes.cu:26");
// CHECK-NEXT:    irregfix_invalidate(rp);
// CHECK-NEXT:    CHECK(cudaMemcpy(rp, h_rp, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
// CHECK-NEXT:    irregfix_invalidate(val);
// CHECK-NEXT:    cudaMemcpyAsync(val, h_val, nnz * sizeof(float), cudaMemcpyHostToDevice, 0);
// CHECK-NEXT:    if (reset)
// CHECK-NEXT:      { irregfix_invalidate(col); cudaMemset(col, 0, nnz * sizeof(int)); }
// CHECK-NEXT:    irregfix_invalidate(val);
// CHECK-NEXT:    scale<<<nnz / 256 + 1, 256>>>(nnz, val, x);
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    spmv_irregfix_launch(n / 256 + 1, 256, 0, 0, n, rp, col, val, x, y);
// CHECK-NEXT:    irregfix_release(val);
// CHECK-NEXT:    CHECK(cudaFree(val));
