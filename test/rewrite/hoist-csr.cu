// --hoist on a CSR SpMV (the CG sample's kernel): the hoisted kernel runs the
// iterations of one HoistStep, resuming and saving 'sum' per thread; the
// launcher launches it per step and once more for the epilogue, with the
// in-kernel kernel as the fallback when the runtime has no buffers.
// RUN: %irregfix --hoist %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void spmv_csr(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}
// WHY: hoist-csr.cu:[[@LINE-5]]:5: remark: range site in 'spmv_csr' transformed
// WHY: remark: threads of 'spmv_csr' keep their order (no SELL-32-sigma): its loop is hoisted
// WHY: hoist-csr.cu:[[@LINE-7]]:5: remark: loop of 'spmv_csr' hoisted: run from the host, a slice of iterations a launch; 'sum' carried between launches

// The in-kernel kernel is unchanged by --hoist.
// CHECK-LABEL: __global__ void spmv_csr_irregfix(
// CHECK:           for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, row); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)

// CHECK-LABEL: __global__ void spmv_csr_irregfix_hoisted(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_val, const int *__restrict__ __irregfix_v0_col, irregfix::HoistStep __irregfix_step, float *__restrict__ __irregfix_live_sum) {
// CHECK-NEXT:    int row = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    if (row < n) {
// CHECK-NEXT:      float sum = 0.0f;
// CHECK-NEXT:      if (!__irregfix_step.epilogue) {
// CHECK-NEXT:        if (__irregfix_step.begin > 0) {
// CHECK-NEXT:          if (__irregfix_step.begin >= irregfix::length(__irregfix_v0, row))
// CHECK-NEXT:            return;
// CHECK-NEXT:          sum = __irregfix_live_sum[row];
// CHECK-NEXT:        }
// CHECK-NEXT:        for (int __irregfix_iter0 = __irregfix_step.begin, __irregfix_len0 = irregfix::length(__irregfix_v0, row); __irregfix_iter0 < __irregfix_len0 && __irregfix_iter0 < __irregfix_step.end; ++__irregfix_iter0)
// CHECK-NEXT:        sum += __irregfix_v0_val[irregfix::slot(__irregfix_v0, row, __irregfix_iter0)] * x[__irregfix_v0_col[irregfix::slot(__irregfix_v0, row, __irregfix_iter0)]];
// CHECK-NEXT:        __irregfix_live_sum[row] = sum;
// CHECK-NEXT:        return;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (__irregfix_step.carried) {
// CHECK-NEXT:        sum = __irregfix_live_sum[row];
// CHECK-NEXT:      }
// CHECK-NEXT:      y[row] = sum;
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// The site says kSiteHoisted: a launch that remaps defers its copies to
// begin_hoisted, the last condition, which slices them (or runs them whole and
// sends a cached launch to the in-kernel loop); a copy that cannot be enqueued
// runs the original kernel.
// CHECK:       static const irregfix::SiteInfo __irregfix_site_spmv_csr_0 = {"hoist-csr.cu:13:5", "spmv_csr", "range", irregfix::kSiteHoisted, nullptr, "val,col,row_ptr"};
// CHECK:         const size_t __irregfix_live_size[1] = {sizeof(float)};
// CHECK-NEXT:    void *__irregfix_live[1];
// CHECK-NEXT:    irregfix::HoistPlan __irregfix_plan;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_spmv_csr_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK:             irregfix::prepare_range(
// CHECK-NEXT:        irregfix::begin_hoisted(__irregfix_site_spmv_csr_0, __irregfix_v0, 1, __irregfix_live_size, __irregfix_live, &__irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:      if (__irregfix_plan.hoisted) {
// CHECK-NEXT:        for (int __irregfix_s = 0; __irregfix_s < __irregfix_plan.steps; ++__irregfix_s) {
// CHECK-NEXT:          irregfix::hoisted_step(__irregfix_site_spmv_csr_0, __irregfix_s, __irregfix_stream);
// CHECK-NEXT:          spmv_csr_irregfix_hoisted<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]), static_cast<const int *>(__irregfix_v0_out[1]), irregfix::hoist_step(__irregfix_plan, __irregfix_s), static_cast<float *>(__irregfix_live[0]));
// CHECK-NEXT:        }
// CHECK-NEXT:        spmv_csr_irregfix_hoisted<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]), static_cast<const int *>(__irregfix_v0_out[1]), irregfix::hoist_epilogue(__irregfix_plan), static_cast<float *>(__irregfix_live[0]));
// CHECK-NEXT:      } else {
// CHECK-NEXT:        spmv_csr_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]), static_cast<const int *>(__irregfix_v0_out[1]), 0u);
// CHECK-NEXT:      }
// CHECK-NEXT:      irregfix::end_transformed_launch(__irregfix_site_spmv_csr_0, __irregfix_stream);
// CHECK-NEXT:      return;
// CHECK-NEXT:    }
// CHECK-NEXT:    spmv_csr<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, y);

void run(int n, const int *rp, const int *c, const float *v, const float *x, float *y) {
  spmv_csr<<<(n + 255) / 256, 256>>>(n, rp, c, v, x, y);
}
// CHECK: spmv_csr_irregfix_launch((n + 255) / 256, 256, 0, 0, n, rp, c, v, x, y);
