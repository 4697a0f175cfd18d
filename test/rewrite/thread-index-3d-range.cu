// A CSR row a cell of a 3-D grid, the cells numbered (k * ny + j) * nx + i and
// guarded by an early return on each index: one range site over
// nx * ny * nz threads. Its threads stay in order (a permuted order would have
// to renumber i, j and k) and its launches run whole.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void cells(int nx, int ny, int nz, const int *rp, const float *val, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= nx || j >= ny || k >= nz)
    return;
  int c = (k * ny + j) * nx + i;
  float s = 0.0f;
  for (int e = rp[c]; e < rp[c + 1]; ++e)
    s += val[e];
  out[c] = s;
}
// WHY: thread-index-3d-range.cu:19:3: remark: range site in 'cells' transformed
// WHY: remark: threads of 'cells' keep their order (no SELL-32-sigma): its threads are numbered from 2-D or 3-D indices (i + nx * j), which a permuted order would have to renumber
// WHY: remark: launches of 'cells' run whole (no remap overlapping the kernel): its threads are numbered from 2-D or 3-D indices (i + nx * j): a chunk of blocks is not a range of them
// CHECK-LABEL: __global__ void cells_irregfix(int nx, int ny, int nz, const int *rp, const float *val, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_val) {
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, c); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      s += __irregfix_v0_val[irregfix::slot(__irregfix_v0, c, __irregfix_iter0)];
// CHECK:       static const irregfix::SiteInfo __irregfix_site_cells_0 = {"thread-index-3d-range.cu:19:3", "cells", "range", 0, nullptr, "val,rp"};
// CHECK:             irregfix::prepare_range(__irregfix_site_cells_0, rp, irregfix::index_kind(rp), (long long)(nx) * (long long)(ny) * (long long)(nz), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream)) {

void run(int nx, int ny, int nz, const int *rp, const float *val, float *out) {
  cells<<<dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4)>>>(nx, ny, nz, rp, val, out);
}
// CHECK: cells_irregfix_launch(dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4), 0, 0, nx, ny, nz, rp, val, out);
