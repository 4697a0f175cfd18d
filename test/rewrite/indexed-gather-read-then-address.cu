// A[B[t]] is read, and later its address is taken: the plain read becomes an
// indexed gather; the read whose address is taken stays as it is.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__device__ float peek(const float *p) { return *p; }

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[t]] + peek(&A[B[t]]);
}

void run(int n, const int *B, const float *A, float *y) { k<<<n / 128 + 1, 128>>>(n, B, A, y); }
// WHY: remark: indexed site in 'k' transformed: 'A' at 'B[t]' read through coalesced copies, their indices computed by generated kernels
// CHECK: y[t] = __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, 0)] + peek(&A[B[t]]);
// CHECK: __irregfix_idx0[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : irregfix::kNoIndex;
// CHECK: k_irregfix_indexed0(__irregfix_stream, __irregfix_grid, __irregfix_block, n, B, A, y, &__irregfix_v0, __irregfix_v0_out)) {
