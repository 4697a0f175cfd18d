// Loop nests (rectangular and ragged), strided loops and indices over the
// thread's position in the launch, rewritten with the real CUDA headers,
// compile with nvcc without a warning (-Werror all-warnings).
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: grep -c "static __global__ void [a-z_]*_irregfix_indices0" %t.cu | grep -q "^5$"
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void quads(int n, int c, const int *rows, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0;
  for (int q = 0; q < c / 4; ++q)
#pragma unroll
    for (int i = 0; i <= 3; ++i)
      s += a[rows[t] * c + q * 4 + i];
  out[t] = s;
}

template <int Lanes>
__global__ void lanes(int rows, const int *start, const int *col, const double *val, const double *x, double *y) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r < rows) {
    double s = 0;
    for (int k = start[r] + threadIdx.x; k < start[r + 1]; k += Lanes)
      s += val[k] * x[col[k]];
    for (int o = Lanes / 2; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffff, s, o, Lanes);
    if (threadIdx.x == 0)
      y[r] = s;
  }
}

__global__ void neighbours(int nx, int ny, const int *map, const float *v, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  float s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      s += v[map[(x + dx) + nx * (y + dy)]];
  out[x + nx * y] = s;
}

template <typename T>
__global__ void pair_weights(int n, const int *ptr, const int *ind, const T *work, T *w) {
  for (int row = threadIdx.z + blockIdx.z * blockDim.z; row < n; row += gridDim.z * blockDim.z)
    for (int j = ptr[row] + threadIdx.y + blockIdx.y * blockDim.y; j < ptr[row + 1]; j += gridDim.y * blockDim.y) {
      int col = ind[j];
      w[j] = work[row] + work[col];
    }
}

__global__ void two_rows(int n, const int *rp, const int *col, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (unsigned r = 2 * t; r < 2u * t + 2; ++r)
      for (size_t k = rp[r]; k < (size_t)rp[r + 1]; k += 2)
        s += x[col[k]];
    y[t] = s;
  }
}

void run(int n, const int *p, const int *i, const float *f, const double *d, float *o, double *od) {
  quads<<<n / 128, 128>>>(n, 8, p, f, o);
  lanes<8><<<n / 8, dim3(8, 8)>>>(n, p, i, d, d, od);
  neighbours<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(n, n, p, f, o);
  pair_weights<float><<<dim3(1, 1, n / 8), dim3(1, 8, 8)>>>(n, p, i, f, o);
  two_rows<<<n / 128, 128>>>(n, p, i, f, o);
}
