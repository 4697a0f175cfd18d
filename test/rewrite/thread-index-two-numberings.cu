// One gather read at a linear index (i + nx * j) and at the x index alone:
// the two reads number the threads differently, so the gather site is refused
// with that reason; the read at i alone goes to the indexed strategy (a 1-D
// index guarded by i < nx).
// RUN: %irregfix --report %s -- %stub > %t.err 2>&1
// RUN: FileCheck %s --input-file=%t.err

#include <cuda_runtime.h>

__global__ void two(int nx, int ny, const int *B, const float *A, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    y[i + nx * j] = A[B[i + nx * j]] + A[B[i]];
}
// CHECK: remark: gather site in 'two' not transformed: 'B' is read at two thread indices that number the threads differently
// CHECK: kernel=two pattern=gather offsets=B arrays=A verdict=refused
// CHECK: kernel=two pattern=indexed offsets=- arrays=A verdict=transformed
// CHECK: read kernel=two array=A index="B[i + nx * j]" pattern=gather verdict=not-rewritten reason="'B' is read at two thread indices that number the threads differently"
// CHECK: read kernel=two array=A index="B[i]" pattern=indexed verdict=rewritten
