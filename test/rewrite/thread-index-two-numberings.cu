// One gather read at a linear index (i + nx * j) and at the x index alone:
// the two reads number the threads differently, so no one gather site takes
// both; each goes to an indexed site of its own numbering, the first laid out
// in i + nx * j over nx * ny threads, the second in i over the nx threads its
// guard (i < nx) bounds.
// RUN: %irregfix --report %s -- %stub > %t.err 2>&1
// RUN: FileCheck %s --input-file=%t.err
// RUN: %irregfix %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=CODE

#include <cuda_runtime.h>

__global__ void two(int nx, int ny, const int *B, const float *A, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    y[i + nx * j] = A[B[i + nx * j]] + A[B[i]];
}
// CHECK: thread-index-two-numberings.cu:[[@LINE-2]]:21: remark: indexed site in 'two' transformed: 'A' at 'B[i + nx * j]' read through coalesced copies, their indices computed by generated kernels
// CHECK: thread-index-two-numberings.cu:[[@LINE-3]]:40: remark: indexed site in 'two' transformed: 'A' at 'B[i]' read through coalesced copies, their indices computed by generated kernels
// CHECK: read kernel=two array=A index="B[i + nx * j]" pattern=indexed verdict=rewritten
// CHECK: read kernel=two array=A index="B[i]" pattern=indexed verdict=rewritten
// CODE: y[i + nx * j] = __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, (i + nx * j), 0)] + __irregfix_v1_A_0[irregfix::slot(__irregfix_v1, i, 0)];
// CODE: __irregfix_s.n = (long long)(nx) * (long long)(ny);
// CODE: __irregfix_s.n = (long long)(nx);
