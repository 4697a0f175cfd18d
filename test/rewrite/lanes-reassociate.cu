// --reassociate lets a floating-point sum run with several lanes a row (the
// scalar CSR SpMV): the site says kSiteReassociates, so that IRREGFIX_VERIFY
// reports the largest relative difference from the original, and the remark
// says the results may differ in the last bits. Without it, the same kernel
// gets the variant that keeps the original's order (test/rewrite/lanes-in-order.cu).
// RUN: %irregfix --reassociate %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix --reassociate --quiet --report %s -- %stub | FileCheck %s --check-prefix=REPORT
// RUN: %irregfix --quiet %s -- %stub | sed 's,// .*,,' | FileCheck %s --check-prefix=DEFAULT

#include <cuda_runtime.h>

__global__ void spmv(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}
// CHECK-LABEL: // irregfix: 'spmv' with several lanes a row, combined by shuffles (--reassociate: its floating-point sums in another order); the kernels above are its fallbacks.
// CHECK-NEXT:  __global__ void spmv_irregfix_lanes(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y, const irregfix::Lanes __irregfix_lanes) {
// CHECK:         float __irregfix_part0_sum = 0;
// CHECK-NEXT:    for (int k = (row_ptr[row]) + __irregfix_lane; k < row_ptr[row + 1]; k += __irregfix_lanes.lanes)
// CHECK-NEXT:      __irregfix_part0_sum += val[k] * x[col[k]];
// CHECK-NEXT:    __irregfix_part0_sum = irregfix::lanes_combine<irregfix::kLanesSum>(__irregfix_part0_sum, __irregfix_lanes);
// CHECK-NEXT:    sum += __irregfix_part0_sum;
// CHECK:       static const irregfix::SiteInfo __irregfix_site_spmv_0 = {{{.*}}irregfix::kSiteLanes | irregfix::kSiteReassociates{{.*}}};
// CHECK:         irregfix::lanes_reference(__irregfix_site_spmv_0, 0, y, sizeof(*y), irregfix::value_kind(y), irregfix::lanes_rows(__irregfix_lanes_launch, (long long)(n)), &__irregfix_reference0, __irregfix_stream);
// CHECK:         spmv<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, row_ptr, col, val, x, static_cast<float *>(__irregfix_reference0));

// REMARK: remark: rows of 'spmv' may run with several lanes each (warp-cooperative rows: sum of 'sum' combined by shuffles; floating-point results may differ from the original's in the last bits, as --reassociate allows)
// REPORT: kernel=spmv pattern=range {{.*}} lanes=reassociated
// DEFAULT: irregfix::kSiteLanes
// DEFAULT-NOT: kSiteReassociates
// DEFAULT-NOT: lanes_combine

void multiply(int n, const int *rp, const int *c, const float *v, const float *x, float *y) {
  spmv<<<(n + 255) / 256, 256>>>(n, rp, c, v, x, y);
}
