// Rewritten with the real CUDA headers, the output compiles with nvcc and links
// against the runtime. With a GPU, it runs and gives the same bits as the
// original kernel (IRREGFIX_DISABLE=1 runs the originals).
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_STATS=1 %t.exe %t.irregfix.bin 2> %t.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.irregfix.bin %}
// Every layout gives the same bits (the kernel is permutable: SELL-32-sigma too).
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell %t.exe %t.ell.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.ell.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32s IRREGFIX_SIGMA=64 %t.exe %t.sigma.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sigma.bin %}
// In the locality order x is read through a copy renumbered like col (also where the L2 would hold x).
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=locality IRREGFIX_RENUMBER=1 IRREGFIX_STATS=1 %t.exe %t.locality.bin 2> %t.locality.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.locality.bin %}
// RUN: %if cuda-device %{ FileCheck %s --check-prefix=LOCALITY --input-file=%t.locality.stats %}
// Both kernels, spmv (x) and pull (rank and degree), in the locality order with renumbered reads.
// LOCALITY-DAG: kernel spmv pattern range layout locality
// LOCALITY-DAG: kernel pull pattern range layout locality
// LOCALITY-DAG: renumbered: 'col' holds positions in the locality order
// LOCALITY-DAG: renumbered: 'col' holds positions in the locality order
// RUN: %if cuda-device %{ FileCheck %s --input-file=%t.stats %}
// CHECK: spmv

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

__global__ void spmv(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

// A pull step of PageRank: two arrays read at col's values, each through its own renumbered copy.
__global__ void pull(int n, const int *row_ptr, const int *col, const float *rank, const float *degree, float *next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    float sum = 0.0f;
    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
      const int u = col[k];
      sum += rank[u] / degree[u];
    }
    next[v] = 0.15f + 0.85f * sum;
  }
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int n = 100003; // not a multiple of the block size
  std::vector<int> rp(n + 1), col;
  std::vector<float> val, x(n), degree(n);
  unsigned s = 12345;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  for (int r = 0; r < n; ++r) {
    rp[r] = (int)col.size();
    int len = rnd() % 40 == 0 ? 60 : rnd() % 9; // some empty rows, a few long ones
    for (int j = 0; j < len; ++j) {
      col.push_back(rnd() % n);
      val.push_back((rnd() % 2000) / 1000.0f - 1.0f + 1e-3f);
    }
  }
  rp[n] = (int)col.size();
  for (float &v : x)
    v = (rnd() % 2000) / 999.0f - 1.0f;
  for (float &d : degree)
    d = 1.0f + rnd() % 17;

  int *d_rp, *d_col;
  float *d_val, *d_x, *d_y, *d_degree, *d_next;
  CHECK(cudaMalloc(&d_rp, rp.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_col, col.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_val, val.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_x, x.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_degree, n * sizeof(float)));
  CHECK(cudaMalloc(&d_next, n * sizeof(float)));
  CHECK(cudaMemcpy(d_rp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_degree, degree.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_y, 0xff, n * sizeof(float))); // poison

  std::vector<float> y(n);
  FILE *out = std::fopen(argv[1], "wb");
  for (int rep = 0; rep < 3; ++rep) { // a miss, then cache hits
    spmv<<<(n + 255) / 256, 256>>>(n, d_rp, d_col, d_val, d_x, d_y);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::fwrite(y.data(), sizeof(float), n, out);
  }
  // Change the matrix values: the copy must be refreshed, not reused.
  for (float &v : val)
    v *= -0.5f;
  CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
  spmv<<<(n + 255) / 256, 256>>>(n, d_rp, d_col, d_val, d_x, d_y);
  CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::fwrite(y.data(), sizeof(float), n, out);
  // PageRank steps: rank changes every launch, so its renumbered copy is made at each.
  for (int step = 0; step < 4; ++step) {
    pull<<<(n + 255) / 256, 256>>>(n, d_rp, d_col, step % 2 ? d_next : d_x, d_degree, step % 2 ? d_x : d_next);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaMemcpy(y.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::fwrite(y.data(), sizeof(float), n, out);
  std::fclose(out);
  return 0;
}
