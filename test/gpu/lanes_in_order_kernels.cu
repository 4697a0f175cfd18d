// Kernels of the in-order lanes GPU tests (see lanes_in_order_kernels.h).
#include "lanes_in_order_kernels.h"

__global__ void in_order_dots_kernel(int n, const int *B, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = B[row]; k < B[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

__global__ void in_order_mins_kernel(int n, const int *B, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    double m = 1e30;
    for (int k = B[t]; k < B[t + 1]; ++k)
      if (A[k] < m)
        m = A[k];
    y[t] = m;
  }
}

__global__ void in_order_skipping_kernel(int n, const int *B, const int *col, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.0f;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (col[k] < 0)
        continue;
      s += A[k] * 0.5f + s * 1e-3f;
    }
    y[t] = s;
  }
}

__global__ void in_order_mix_kernel(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f, m = -1e30f;
    int count = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      if (A[k] > m)
        m = A[k];
      count++;
    }
    y[t] = s * 0.5f + m + static_cast<float>(count);
  }
}

namespace lanes_in_order {

static unsigned blocks(int n, unsigned block) { return (static_cast<unsigned>(n) + block - 1) / block; }

void row_dots(int n, const int *B, const int *col, const float *val, const float *x, float *y, unsigned block) {
  in_order_dots_kernel<<<blocks(n, block), block>>>(n, B, col, val, x, y);
}

void row_mins(int n, const int *B, const double *A, double *y, unsigned block) {
  in_order_mins_kernel<<<blocks(n, block), block>>>(n, B, A, y);
}

void row_mix(int n, const int *B, const float *A, float *y, unsigned block) {
  in_order_mix_kernel<<<blocks(n, block), block>>>(n, B, A, y);
}

void row_sums_skipping(int n, const int *B, const int *col, const float *A, float *y, unsigned block) {
  in_order_skipping_kernel<<<blocks(n, block), block>>>(n, B, col, A, y);
}

} // namespace lanes_in_order
