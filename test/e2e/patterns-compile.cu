// Every pattern, rewritten with the real CUDA headers, compiles with nvcc
// without a warning (-Werror all-warnings).
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void spmv(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float s = 0.0f;
    for (int k = rp[row]; k < rp[row + 1]; ++k)
      s += val[k] * x[col[k]];
    y[row] = s;
  }
}

__global__ void calc_pi_values(int ne, const int *edge_var, const int *off, const int *edges, const float *eta, float *pi) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < ne) {
    int v = edge_var[e];
    int start = off[v];
    int len = off[v + 1] - start;
    float p = 1.0f;
    for (int i = 0; i < len; i++) {
      int other = edges[start + i];
      if (other != e)
        p *= 1.0f - eta[other];
    }
    pi[e] = p;
  }
}

__global__ void lj(int n, const int *cnt, const int *nb, const float4 *pos, float4 *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 a = pos[t];
    float fx = 0.f;
    for (int j = 0; j < cnt[t]; j++) {
      int q = nb[j * n + t];
      float4 b = pos[q];
      fx += a.x - b.x;
    }
    f[t] = make_float4(fx, 0.f, 0.f, 0.f);
  }
}

__global__ void g2(int n, const int *B, const int *C, const double2 *A, double2 *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[C[t]]];
}

template <class T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) spmv_t(int n, const int *rp, const T *val, T *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    T s = 0;
    for (int k = rp[row]; k < rp[row + 1]; ++k)
      s += val[k];
    y[row] = s;
  }
}

void run_t(int n, const int *rp, const float *v, float *y, const double *vd, double *yd) {
  spmv_t<float, 128><<<n / 128 + 1, 128>>>(n, rp, v, y);
  spmv_t<double, 128><<<n / 128 + 1, 128>>>(n, rp, vd, yd);
}

void run(cudaStream_t s, int n, const int *rp, const int *col, const float *val, const float *x, float *y,
         const int *ev, const int *off, const int *edges, const float *eta, float *pi, const int *cnt,
         const int *nb, const float4 *pos, float4 *f, const int *B, const int *C, const double2 *A, double2 *o) {
  spmv<<<n / 256 + 1, 256, 0, s>>>(n, rp, col, val, x, y);
  calc_pi_values<<<n / 256 + 1, 256, 0, s>>>(n, ev, off, edges, eta, pi);
  lj<<<n / 128 + 1, 128, 0, s>>>(n, cnt, nb, pos, f);
  g2<<<n / 128 + 1, 128, 0, s>>>(n, B, C, A, o);
}

// An indexed site in a kernel template (its index kernels become templates).
struct Mesh {
  const int *nb;
  int cells;
};
template <int Stride, class T>
__global__ void meshGather(Mesh m, const T *A, T *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m.cells)
    y[t] = A[m.nb[t * Stride + 1]];
}
void runMeshGather(Mesh m, const float *a, float *y, const double *d, double *z) {
  meshGather<2><<<4, 32>>>(m, a, y);
  meshGather<3, double><<<4, 32>>>(m, d, z);
}
