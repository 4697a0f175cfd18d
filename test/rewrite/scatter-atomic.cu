// A scatter update through an atomic, y[col[k]] += val[k] * x[row[k]] (SpMV
// with the transposed matrix, one thread a non-zero): the variant writes each
// thread's contribution to a buffer, the launcher runs it and the runtime's
// executor. The gather x[row[k]] stays as it is: the scatter strategy takes the kernel.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"

#include <cuda_runtime.h>

__global__ void spmv_t(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz)
    atomicAdd(&y[col[k]], val[k] * x[row[k]]);
}
// CHECK-LABEL: __global__ void spmv_t_irregfix(int nnz, const int *row, const int *col, const float *val, const float *x, float *y, float *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots) {
// CHECK-NEXT:    int k = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    if (k < nnz)
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[k]] = (val[k] * x[row[k]]);
// CHECK-NEXT:  }
// CHECK:       static const irregfix::SiteInfo __irregfix_site_spmv_t_0 = {"scatter-atomic.cu:14:5", "spmv_t", "scatter", 0, nullptr, "y,col"};
// CHECK:       static void spmv_t_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
// CHECK-NEXT:    irregfix::ScatterPlan __irregfix_plan;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_spmv_t_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_t_0, y, row) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_t_0, y, col) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_t_0, y, val) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_spmv_t_0, y, x) &&
// CHECK-NEXT:        irregfix::prepare_scatter(__irregfix_site_spmv_t_0, col, irregfix::index_kind(col), (long long)(nnz), y, irregfix::scatter_kind(y), &__irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:      spmv_t_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(nnz, row, col, val, x, y, static_cast<float *>(__irregfix_plan.contrib), __irregfix_plan.slots);
// CHECK-NEXT:      if (irregfix::execute_scatter(__irregfix_site_spmv_t_0, __irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:        irregfix::end_transformed_launch(__irregfix_site_spmv_t_0, __irregfix_stream);
// CHECK-NEXT:        return;
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    spmv_t<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(nnz, row, col, val, x, y);
// CHECK-NEXT:    irregfix::end_original_launch(__irregfix_site_spmv_t_0, __irregfix_stream);
// CHECK-NEXT:  }

void multiply(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
  spmv_t<<<(nnz + 255) / 256, 256>>>(nnz, row, col, val, x, y);
}
// CHECK-LABEL: void multiply(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("scatter-atomic.cu:40");
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    spmv_t_irregfix_launch((nnz + 255) / 256, 256, 0, 0, nnz, row, col, val, x, y);

// REMARK: scatter-atomic.cu:14:16: remark: gather site in 'spmv_t' not transformed: it is the update of 'y', which the scatter strategy rewrites
// REMARK: scatter-atomic.cu:14:36: remark: gather site in 'spmv_t' not transformed: the kernel's update of 'y' is rewritten instead (scatter: an inspector-executor), which reads its arrays in place
// REMARK: scatter-atomic.cu:14:5: remark: scatter site in 'spmv_t' transformed: updates of 'y' through 'col' run as an inspector-executor (each thread's contribution written to a buffer, added per element in thread order, without atomics)
// REMARK: scatter-atomic.cu:40:6: remark: cached copies are dropped whenever 'multiply' is entered from another file: code there may have written their sources
