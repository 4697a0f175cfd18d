// A CSR row loop inside a __device__ function the kernel calls with its own
// arrays and its thread index: the site is rewritten at the call. The kernel's
// copy calls a copy of the function made for it, which takes the view and the
// coalesced copies as extra parameters and reads them at the parameter that
// holds the thread index; the original function stays for the original kernel.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
// RUN: %irregfix --report %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__device__ float row_dot(const int *rowptr, const int *col, const float *val, const float *x, int row) {
  float sum = 0.0f;
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
    sum += val[k] * x[col[k]];
  return sum;
}

__global__ void spmv(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n)
    y[row] = row_dot(rowptr, col, val, x, row);
}
// The original function and kernel come first, unchanged.
// CHECK-LABEL: __device__ float row_dot(const int *rowptr, const int *col, const float *val, const float *x, int row) {
// CHECK-NEXT:    float sum = 0.0f;
// CHECK-NEXT:    for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
// CHECK-LABEL: __global__ void spmv(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
// CHECK:           y[row] = row_dot(rowptr, col, val, x, row);
// CHECK-LABEL: // irregfix: 'row_dot' for spmv_irregfix, reading the copies of the sites it reaches; the original serves the original kernel.
// CHECK-NEXT:  __device__ float row_dot_irregfix_spmv(const int *rowptr, const int *col, const float *val, const float *x, int row, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_val, const int *__restrict__ __irregfix_v0_col) {
// CHECK-NEXT:    float sum = 0.0f;
// CHECK-NEXT:    for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, row); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      sum += __irregfix_v0_val[irregfix::slot(__irregfix_v0, row, __irregfix_iter0)] * x[__irregfix_v0_col[irregfix::slot(__irregfix_v0, row, __irregfix_iter0)]];
// CHECK-NEXT:    return sum;
// CHECK-NEXT:  }
// CHECK:       __global__ void spmv_irregfix(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_val, const int *__restrict__ __irregfix_v0_col, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:    int row = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    if (row < n)
// CHECK-NEXT:      y[row] = row_dot_irregfix_spmv(rowptr, col, val, x, row, __irregfix_v0, __irregfix_v0_val, __irregfix_v0_col);
// The launcher prepares the kernel's arrays, as for a loop in the kernel.
// CHECK:             irregfix::prepare_range(__irregfix_site_spmv_0, rowptr, irregfix::index_kind(rowptr), (long long)(n), 2, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

// WHY: callee-range.cu:14:3: remark: range site in 'spmv' transformed: 'val', 'col' read through a coalesced copy indexed by 'rowptr'
// WHY: remark: threads of 'spmv' keep their order (no SELL-32-sigma): it has a site in a function it calls

// REPORT: callee-range.cu:14:3: kernel=spmv pattern=range offsets=rowptr arrays=val,col verdict=transformed threads=in-order launch=chunked
// REPORT: :15:12: read kernel=spmv function=row_dot array=val index="k" pattern=range verdict=rewritten
// REPORT: :15:21: read kernel=spmv function=row_dot array=x index="col[k]" pattern=gather in a loop verdict=index-remapped
// REPORT: :15:23: read kernel=spmv function=row_dot array=col index="k" pattern=range verdict=rewritten

void run(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  spmv<<<(n + 127) / 128, 128>>>(n, rowptr, col, val, x, y);
}
