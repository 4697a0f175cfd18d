// The paper's CG pattern: one thread per row, CSR range loop, nested gather x[col[k]]. The launcher
// runs the copies' kernel, or the lanes variant (test/rewrite/lanes-in-order.cu) when the runtime chooses it.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>
// CHECK: #include <cuda_runtime.h>
// CHECK-NEXT: #include <irregfix/irregfix.cuh>

__global__ void spmv(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

// The original stays as the fallback.
// CHECK-LABEL: __global__ void spmv(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
// CHECK:         for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)

// CHECK-LABEL: __global__ void spmv_irregfix(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_val, const int *__restrict__ __irregfix_v0_col, const float *__restrict__ __irregfix_v0_x_renumbered, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:    const long long __irregfix_p = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    int row = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK-NEXT:    if (row < n) {
// CHECK-NEXT:      float sum = 0.0f;
// CHECK-NEXT:      for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:        sum += __irregfix_v0_val[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)] * __irregfix_v0_x_renumbered[__irregfix_v0_col[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)]];
// CHECK-NEXT:      y[row] = sum;

// CHECK:       static const irregfix::SiteInfo __irregfix_site_spmv_0 = {"csr-basic.cu:{{[0-9]+}}:5", "spmv", "range", irregfix::kSitePermutable | irregfix::kSiteChunkable | irregfix::kSiteLanes | irregfix::kSiteLanesInOrder, nullptr, "val,col,row_ptr", 1};
// CHECK:       static void spmv_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
// CHECK-NEXT:    irregfix::View __irregfix_v0;
// CHECK-NEXT:    const void *__irregfix_v0_out[2];
// CHECK-NEXT:    const void *const __irregfix_v0_src[2] = {val, col};
// CHECK-NEXT:    const size_t __irregfix_v0_size[2] = {sizeof(*val), sizeof(*col)};
// CHECK-NEXT:    const void *__irregfix_v0_x_renumbered = nullptr;
// CHECK-NEXT:    int __irregfix_chunks = 0;
// CHECK-NEXT:    void *__irregfix_reference0 = nullptr;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_spmv_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_0, y, row_ptr) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_0, y, val) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_0, y, col) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_0, y, x) &&
// CHECK-NEXT:        irregfix::prepare_range(__irregfix_site_spmv_0, row_ptr, irregfix::index_kind(row_ptr), (long long)(n), 2, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::prepare_renumbered(__irregfix_site_spmv_0, 0, x, sizeof(*x), &__irregfix_v0_x_renumbered, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_spmv_0, __irregfix_stream, &__irregfix_chunks)) {
// CHECK-NEXT:      if (irregfix::runs_lanes(__irregfix_v0)) {
// CHECK-NEXT:        const irregfix::LanesLaunch __irregfix_lanes_launch = irregfix::lanes_launch(__irregfix_v0, __irregfix_grid, __irregfix_block);
// CHECK-NEXT:        irregfix::lanes_reference(__irregfix_site_spmv_0, 0, y, sizeof(*y), irregfix::value_kind(y), irregfix::lanes_rows(__irregfix_lanes_launch, (long long)(n)), &__irregfix_reference0, __irregfix_stream);
// CHECK-NEXT:        spmv_irregfix_lanes<<<__irregfix_lanes_launch.grid, __irregfix_lanes_launch.block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y, __irregfix_lanes_launch.lanes);
// CHECK-NEXT:      } else {
// CHECK-NEXT:        for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c) {
// CHECK-NEXT:          const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(__irregfix_site_spmv_0, __irregfix_c, __irregfix_grid, __irregfix_stream);
// CHECK-NEXT:          spmv_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]), static_cast<const int *>(__irregfix_v0_out[1]), static_cast<const float *>(__irregfix_v0_x_renumbered), __irregfix_chunk.block_offset);
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      irregfix::end_transformed_launch(__irregfix_site_spmv_0, __irregfix_stream);
// CHECK-NEXT:      if (__irregfix_reference0) {
// CHECK-NEXT:        spmv<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, static_cast<float *>(__irregfix_reference0));
// CHECK-NEXT:        irregfix::lanes_compare(__irregfix_site_spmv_0, __irregfix_stream);
// CHECK-NEXT:      }
// CHECK-NEXT:      return;
// CHECK-NEXT:    }
// CHECK-NEXT:    spmv<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y);
// CHECK-NEXT:    irregfix::end_original_launch(__irregfix_site_spmv_0, __irregfix_stream);
// CHECK-NEXT:  }

void multiply(int n, const int *rp, const int *c, const float *v, const float *x, float *y) {
  spmv<<<(n + 255) / 256, 256>>>(n, rp, c, v, x, y);
}
// CHECK-LABEL: void multiply(int n, const int *rp, const int *c, const float *v, const float *x, float *y) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("csr-basic.cu:{{[0-9]+}}");
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    spmv_irregfix_launch((n + 255) / 256, 256, 0, 0, n, rp, c, v, x, y);
// CHECK-NEXT:  }
