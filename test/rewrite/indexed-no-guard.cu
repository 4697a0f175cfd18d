// No guard bounds the thread index: an indexed site (rows one ahead of the
// thread, which no range pattern reads) runs the launch's threads
// (grid.x * blockDim.x), every index checked.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = B[t + 1]; k < B[t + 2]; ++k) s += A[k];
  y[t] = s;
}
// WHY: remark: indexed site in 'k' transformed: 'A' at 'k' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK: { const long long __irregfix_first0 = (long long)(B[t + 1]); for (int k = B[t + 1]; k < B[t + 2]; ++k) s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, (k - __irregfix_first0))]; }
// CHECK: __irregfix_idx0[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : irregfix::kNoIndex;
// CHECK: __irregfix_s.n = (long long)__irregfix_grid.x * __irregfix_block.x;
// CHECK: k_irregfix_indexed0(__irregfix_stream, __irregfix_grid, __irregfix_block, n, B, A, y, &__irregfix_v0, __irregfix_v0_out)) {
