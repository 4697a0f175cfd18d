// A file with no indirect site is printed unchanged: no include, no invalidation.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: diff %s %t.out
// RUN: count 0 < %t.err

#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void run(int n, const float *x, float *y) {
  cudaMemset(y, 0, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
}
