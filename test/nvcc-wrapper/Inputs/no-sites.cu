// No indirect read: nothing to rewrite.
#include <cuda_runtime.h>
__global__ void scale(int n, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] *= 2;
}
