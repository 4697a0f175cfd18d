// Scatter sites (irregular reductions), rewritten with the real CUDA headers,
// compile with nvcc without a warning (-Werror all-warnings): float through
// atomicAdd, double through +=, int in a grid-stride loop.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: grep -c "^ *irregfix::prepare_scatter(" %t.cu | grep -x 3
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void spmv_t(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz)
    atomicAdd(&y[col[k]], val[k] * x[row[k]]);
}

__global__ void deposit(int n, const long long *cell, const double *q, double *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  rho[cell[t]] += q[t];
}

__global__ void histogram(int n, const unsigned *bin, int *counts) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x)
    atomicAdd(&counts[bin[t]], 1);
}

void run(int nnz, const int *row, const int *col, const float *val, const float *x, float *y, const long long *cell,
         const double *q, double *rho, const unsigned *bin, int *counts, cudaStream_t s) {
  spmv_t<<<(nnz + 255) / 256, 256, 0, s>>>(nnz, row, col, val, x, y);
  deposit<<<(nnz + 255) / 256, 256>>>(nnz, cell, q, rho);
  histogram<<<64, 256>>>(nnz, bin, counts);
}
