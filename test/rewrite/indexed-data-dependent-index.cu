// A data-dependent row (t = order[gid]) read for threads no guard on the
// global index bounds: the indexed strategy computes every thread's indices (checked
// loads), the kernel reads the copies where it read the arrays.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *order, const int *B, const float *A, float *y) {
  int t = order[blockIdx.x * blockDim.x + threadIdx.x];
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// WHY: remark: indexed site in 'k' transformed: 'B' at 't', 'B' at 't + 1' read through coalesced copies, their indices computed by generated kernels
// WHY: remark: indexed site in 'k' transformed: 'A' at 'k' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK: { const long long __irregfix_first1 = (long long)(B[t]); for (int k = __irregfix_v0_B_0[irregfix::slot(__irregfix_v0, (blockIdx.x * blockDim.x + threadIdx.x), 0)]; k < __irregfix_v0_B_1[irregfix::slot(__irregfix_v0, (blockIdx.x * blockDim.x + threadIdx.x), 0)]; ++k) s += __irregfix_v1_A_0[irregfix::slot(__irregfix_v1, (blockIdx.x * blockDim.x + threadIdx.x), (k - __irregfix_first1))]; }
// CHECK: __irregfix_idx0[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : irregfix::kNoIndex;
// CHECK: k_irregfix_indexed0(__irregfix_stream, __irregfix_grid, __irregfix_block, n, order, B, A, y, &__irregfix_v0, __irregfix_v0_out) &&
