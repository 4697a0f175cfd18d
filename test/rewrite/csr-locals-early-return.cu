// Start/end locals, `k != end`, an early-return guard and a grid given as dim3.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void rowsum(const int *offsets, const double *values, double *out, int rows) {
  const unsigned r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r >= rows)
    return;
  int start = offsets[r];
  int end = offsets[r + 1];
  double acc = 0;
  for (int k = start; k != end; k++)
    acc += values[k];
  out[r] = acc;
}
// CHECK-LABEL: __global__ void rowsum_irregfix(const int *offsets, const double *values, double *out, int rows, irregfix::View __irregfix_v0, const double *__restrict__ __irregfix_v0_values, const unsigned __irregfix_block_offset) {
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      acc += __irregfix_v0_values[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
// CHECK:         irregfix::prepare_range(__irregfix_site_rowsum_0, offsets, irregfix::index_kind(offsets), (long long)(rows), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_rowsum_0, __irregfix_stream, &__irregfix_chunks)) {

void launch(const int *o, const double *v, double *out, int rows, cudaStream_t s) {
  dim3 grid((rows + 127) / 128);
  rowsum<<<grid, 128, 0, s>>>(o, v, out, rows);
}
// CHECK-LABEL: void launch(const int *o, const double *v, double *out, int rows, cudaStream_t s) {
// CHECK:         rowsum_irregfix_launch(grid, 128, 0, s, o, v, out, rows);
