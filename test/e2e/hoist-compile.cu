// Hoisted kernels and launchers, rewritten with the real CUDA headers, compile
// with nvcc without a warning: a range with a float live value, the counted
// two-level form, and a neighbour list carrying a float4 built by make_float4.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet --hoist %s -o %t.cu
// RUN: grep -c '[_]irregfix_hoisted<<<' %t.cu | grep -x 6
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

__global__ void forces(int n, const int *cnt, const int *nb, const float4 *pos, float4 *force) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float4 pi = pos[t];
  float4 f = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int j = 0; j < cnt[t]; j++) {
    int q = nb[j * n + t];
    float4 pj = pos[q];
    f.x += sqrtf(fabsf(pi.x - pj.x));
  }
  force[t] = f;
}

void run(int n, const int *rp, const int *col, const float *val, const float *x, float *y, const int *ev,
         const float *eta, float *pi, const int *cnt, const int *nb, const float4 *pos, float4 *force) {
  spmv<<<(n + 255) / 256, 256>>>(n, rp, col, val, x, y);
  calc_pi_values<<<(n + 255) / 256, 256>>>(n, ev, rp, col, eta, pi);
  forces<<<(n + 255) / 256, 256>>>(n, cnt, nb, pos, force);
}
