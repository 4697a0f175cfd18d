// Kernels in a file of their own, in a directory of their own, with a helper
// header beside them.
#pragma once
#include <cuda_runtime.h>
#include "scale.cuh"

__global__ void spmv(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float s = 0.0f;
    for (int k = rp[row]; k < rp[row + 1]; ++k)
      s += val[k] * x[col[k]];
    y[row] = scale(s);
  }
}

inline void spmv_host(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  spmv<<<(n + 127) / 128, 128>>>(n, rp, col, val, x, y);
}
