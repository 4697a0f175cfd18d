// Sites in __device__ functions given a kernel array at an offset the launch
// computes: a gather through `x + shift`, a CSR row loop over the second half
// of a matrix (`&rp[first]`, `val` and `col` whole), and the same array read
// through a parameter passed unchanged and through a view. The offsets change
// between rounds (a new view start is a new copy) and so do the values (a copy
// refreshed, not reused). The output compiles with nvcc and links against the
// runtime; with a GPU it gives the same bits as the original kernels
// (IRREGFIX_DISABLE=1) in every layout a kernel that keeps its threads in order
// may take and under IRREGFIX_VERIFY, with every site's launches transformed.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: grep -q 'pick_irregfix_shifted_gather(' %t.cu
// RUN: grep -q 'irregfix::prepare_range(__irregfix_site_later_rows_0, (rp + (first))' %t.cu
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_STATS=1 %t.exe %t.irregfix.bin 2> %t.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.irregfix.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_STATS=1 %t.exe %t.ell.bin 2> %t.ell.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.ell.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32 %t.exe %t.sell.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sell.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 %t.exe %t.verify.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify.bin %}
// RUN: %if cuda-device %{ FileCheck %s --input-file=%t.ell.stats %}
// RUN: %if cuda-device %{ not grep -E 'original by choice [1-9]|fallbacks [1-9]' %t.ell.stats %}
// CHECK-DAG: kernel shifted_gather pattern gather layout ell
// CHECK-DAG: kernel later_rows pattern range layout ell
// CHECK-DAG: kernel difference pattern gather layout ell
// (A kernel's launches are counted at its first site: difference's second
// gather, read through a copy of its own, counts none.)

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

__device__ float pick(const float *a, const int *idx, int i) { return a[idx[i]]; }

__global__ void shifted_gather(int n, int shift, const float *x, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pick(x + shift, idx, t) * 0.5f;
}

__device__ float row_dot(const int *rp, const int *col, const float *val, const float *x, int row) {
  float s = 0.0f;
  for (int k = rp[row]; k < rp[row + 1]; ++k)
    s += val[k] * x[col[k]];
  return s;
}

__global__ void later_rows(int rows, int first, const int *rp, const int *col, const float *val, const float *x,
                           float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < rows)
    y[t] = row_dot(&rp[first], col, val, x, t);
}

__device__ float both(const float *a, const float *b, const int *idx, int i) { return a[idx[i]] - b[idx[i]]; }

__global__ void difference(int n, int lag, const float *x, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = both(x, x + lag, idx, t);
}

template <typename T> void dump(FILE *out, const T *d, int n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::fwrite(h.data(), sizeof(T), n, out);
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int n = 50021, pad = 64; // x has pad spare elements past n for the shifted reads
  std::vector<int> rp(n + 1), col, idx(n);
  std::vector<float> val, x(n + pad);
  unsigned s = 977;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  for (int r = 0; r < n; ++r) {
    rp[r] = (int)col.size();
    int len = rnd() % 40 == 0 ? 60 : rnd() % 9;
    for (int j = 0; j < len; ++j) {
      col.push_back(rnd() % n);
      val.push_back((rnd() % 2000) / 1000.0f - 1.0f + 1e-3f);
    }
  }
  rp[n] = (int)col.size();
  for (float &v : x)
    v = (rnd() % 2000) / 999.0f - 1.0f;
  for (int &i : idx)
    i = rnd() % n;

  int *d_rp, *d_col, *d_idx;
  float *d_val, *d_x, *d_g, *d_y, *d_d;
  CHECK(cudaMalloc(&d_rp, rp.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_col, col.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
  CHECK(cudaMalloc(&d_val, val.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_x, (n + pad) * sizeof(float)));
  CHECK(cudaMalloc(&d_g, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_d, n * sizeof(float)));
  CHECK(cudaMemcpy(d_rp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), (n + pad) * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_y, 0xff, n * sizeof(float))); // poison

  FILE *out = std::fopen(argv[1], "wb");
  for (int round = 0; round < 3; ++round) {
    const int shift = round == 1 ? 17 : 5, first = round == 1 ? n / 3 : n / 2, rows = n - first;
    for (int rep = 0; rep < 3; ++rep) { // a miss, then cache hits
      shifted_gather<<<(n + 127) / 128, 128>>>(n, shift, d_x, d_idx, d_g);
      later_rows<<<(rows + 255) / 256, 256>>>(rows, first, d_rp, d_col, d_val, d_x, d_y);
      difference<<<(n + 127) / 128, 128>>>(n, pad - shift, d_x, d_idx, d_d);
      CHECK(cudaGetLastError());
      dump(out, d_g, n);
      dump(out, d_y, rows);
      dump(out, d_d, n);
    }
    // New values: every copy must be refreshed, not reused.
    for (float &v : val)
      v *= -0.5f;
    for (float &v : x)
      v += 0.25f;
    CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, x.data(), (n + pad) * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::fclose(out);
  return 0;
}
