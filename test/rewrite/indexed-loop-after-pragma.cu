// An indexed loop site under `#pragma unroll`: the block that holds the loop's
// first value opens on a line above the pragma, which stays right before its loop.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *nb, const int *counts, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    #pragma unroll 4
    for (int j = 0; j < counts[0]; j++)
      s += A[nb[j * n + t]];
    y[t] = s;
  }
}
// WHY: remark: indexed site in 'k' transformed
// CHECK: {{^}}    { const long long __irregfix_first0 = (long long)(0);{{$}}
// CHECK-NEXT: {{^}}    #pragma unroll 4{{$}}
// CHECK-NEXT: {{^}}    for (int j = 0; j < counts[0]; j++){{$}}
// CHECK-NEXT: s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, (j - __irregfix_first0))]; }
