// Kernel templates whose array parameters have a template parameter as their
// type, rewritten with the real CUDA headers, compile with nvcc without a
// warning: the copies' types are named through the template parameter.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: grep -q 'std::remove_pointer_t<P>' %t.cu
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

template <class P>
__global__ void range(int n, const int *B, P A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) { float s = 0; for (int k = B[t]; k < B[t + 1]; ++k) s += A[k]; y[t] = s; }
}

template <class P, class I>
__global__ void gather(int n, I B, const P A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}

template <class P>
__global__ void neighbors(int n, int m, const int *nb, P pos, float *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    for (int j = 0; j < m; j++) s += pos[nb[j * n + t]];
    f[t] = s;
  }
}

void run(int n, int m, const int *B, const long long *L, const float *a, const double *d, float *y) {
  range<<<n / 128 + 1, 128>>>(n, B, a, y);
  range<<<n / 128 + 1, 128>>>(n, B, d, y);
  gather<<<n / 128 + 1, 128>>>(n, L, a, y);
  neighbors<<<n / 128 + 1, 128>>>(n, m, B, a, y);
}
