// A[B[t + 1]] is no gather pattern (B's index is not t): an indexed gather.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t + 1]];
}
// WHY: remark: indexed site in 'k' transformed: 'A' at 'B[t + 1]' read through coalesced copies, their indices computed by generated kernels
// CHECK: if (t < n) y[t] = __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, 0)];
// CHECK: __irregfix_idx0[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : irregfix::kNoIndex;
// CHECK: k_irregfix_indexed0(__irregfix_stream, __irregfix_grid, __irregfix_block, n, B, A, y, &__irregfix_v0, __irregfix_v0_out)) {
