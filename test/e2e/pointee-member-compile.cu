// Arrays inside the struct a pointer parameter points to, in every strategy
// that names them in its launcher (warp-cooperative rows, an indexed site's
// step function, a scatter site's index array, a neighbour list), rewritten
// with the real CUDA headers: the output compiles with nvcc without a warning.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: grep -q 'irregfix::runs_lane[s](' %t.cu
// RUN: grep -q 'irregfix::prepare_indexe[d](' %t.cu
// RUN: grep -q 'irregfix::prepare_scatte[r](' %t.cu
// RUN: grep -q 'irregfix::prepare_neighbor[s](' %t.cu
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

struct Table {
  int count;
  int perm[4096];
  float weight[4096];
  int start[4097];
  int vals[1 << 16];
  float fvals[1 << 16];
};

// A sum of integers over a row: lanes.
__global__ void int_rows(const Table *tab, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int e = tab->start[t]; e < tab->start[t + 1]; ++e)
      s += tab->vals[e];
    out[t] = s;
  }
}

// An index the kernel computes from the next thread's key: an indexed site.
__global__ void next_key(const Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t + 1 < n)
    out[t] = tab->weight[keys[t + 1]];
}

// Updates at a member's indices: a scatter site.
__global__ void spread(const Table *tab, const float *x, float *acc, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicAdd(&acc[tab->perm[t]], x[t]);
}

// Neighbour list in a member.
__global__ void near(const Table *tab, const float *x, float *out, int n, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    for (int j = 0; j < m; ++j)
      s += x[tab->vals[j * n + t]];
    out[t] = s;
  }
}

void run(const Table *tab, const int *keys, const float *x, float *out, float *acc, int *iout, int n, int m) {
  int_rows<<<(n + 127) / 128, 128>>>(tab, iout, n);
  next_key<<<(n + 127) / 128, 128>>>(tab, keys, out, n);
  spread<<<(n + 127) / 128, 128>>>(tab, x, acc, n);
  near<<<(n + 127) / 128, 128>>>(tab, x, out, n, m);
}
