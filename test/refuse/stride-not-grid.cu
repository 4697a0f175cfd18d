// A loop over e that strides by blockDim.x only: several threads visit the same e,
// and e is not the 1-D global index. The indexed strategy would count the
// row's iterations across e's (rewrite/grid-stride.cu), but here some rows are
// skipped before the row's loop starts: the kernel could not count them as
// the index kernels lay them out.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const int *skip, const float *A, float *y) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += blockDim.x) {
    float s = 0;
    if (skip[e])
      continue;
    for (int k = B[e]; k < B[e + 1]; ++k) s += A[k];
    y[e] = s;
  }
}
// CHECK: remark: range site in 'k' not transformed: the index of 'B' is not the 1-D global thread index
