// A neighbour loop bounded by a value in memory: no neighbour pattern, an
// indexed loop site.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *nb, const int *counts, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < counts[0]; j++)
      s += A[nb[j * n + t]];
    y[t] = s;
  }
}
// WHY: remark: indexed site in 'k' transformed: 'A' at 'nb[j * n + t]' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK: s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, (j - __irregfix_first0))]; }
// CHECK: __irregfix_idx0[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : irregfix::kNoIndex;
// CHECK: k_irregfix_indexed0(__irregfix_stream, __irregfix_grid, __irregfix_block, n, nb, counts, A, y, &__irregfix_v0, __irregfix_v0_out)) {
