// The kernels of main.cu.
#pragma once
#include <cuda_runtime.h>

__global__ void spmv(int n, const int *rp, const float *v, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k)
      s += v[k];
    y[t] = s;
  }
}
