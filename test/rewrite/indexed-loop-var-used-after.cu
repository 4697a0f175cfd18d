// The loop variable is used after the loop: no range pattern (it rewrites the
// loop), but the indexed strategy keeps the loop and copies its reads.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    int k;
    for (k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s + k;
  }
}
// WHY: remark: indexed site in 'k' transformed: 'A' at 'k' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK: { const long long __irregfix_first0 = (long long)(B[t]); for (k = B[t]; k < B[t + 1]; ++k) s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, (k - __irregfix_first0))]; }
// CHECK: __irregfix_idx0[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : irregfix::kNoIndex;
// CHECK: k_irregfix_indexed0(__irregfix_stream, __irregfix_grid, __irregfix_block, n, B, A, y, &__irregfix_v0, __irregfix_v0_out)) {
