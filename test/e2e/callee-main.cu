// Indirect reads inside __device__ functions the kernels call: a CSR row loop
// (`y[row] = row_dot(...)`), a gather two calls deep, a row sum over the
// fields of a struct passed by value from a grid-stride loop, and a two-level
// range. The output compiles with nvcc and links against the runtime. With a
// GPU it gives the same bits as the original kernels (IRREGFIX_DISABLE=1)
// through a miss, cache hits and a refresh after the values change, in every
// layout a kernel that keeps its threads in order may take, and under
// IRREGFIX_VERIFY; the statistics show every site's launches transformed.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: grep -q 'row_dot_irregfix_spmv_callee(' %t.cu
// RUN: grep -q 'fetch_irregfix_gather_deep(' %t.cu
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
// CHECK-DAG: kernel spmv_callee pattern range layout ell
// CHECK-DAG: kernel gather_deep pattern gather layout ell
// CHECK-DAG: kernel row_sums pattern range layout ell
// CHECK-DAG: kernel subset_sums pattern range2 layout ell
// CHECK-NOT: launches transformed 0,

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

__device__ float row_dot(const int *row_ptr, const int *col, const float *val, const float *x, int row) {
  float sum = 0.0f;
  for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
    sum += val[k] * x[col[k]];
  return sum;
}

__global__ void spmv_callee(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n)
    y[row] = row_dot(row_ptr, col, val, x, row);
}

__device__ float fetch(const float *a, const int *idx, int i) { return a[idx[i]]; }
__device__ float scaled(const float *a, const int *idx, int i, float s) { return s * fetch(a, idx, i) + 1.0f; }

__global__ void gather_deep(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  out[t] = scaled(a, idx, t, 0.75f);
}

struct Csr {
  const int *row_ptr;
  const int *col;
  const float *val;
};

__device__ double row_sum(Csr m, int row) {
  double s = 0.0;
  for (int k = m.row_ptr[row]; k < m.row_ptr[row + 1]; ++k)
    s += (double)m.val[k] * (k % 3 - 1);
  return s;
}

__global__ void row_sums(int n, Csr m, double *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = row_sum(m, i);
}

__device__ float picked_row(const int *row_ptr, const int *rows, const float *val, int r) {
  int v = rows[r];
  float s = 0.0f;
  for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k)
    s = s * 0.5f + val[k];
  return s;
}

__global__ void subset_sums(int m, const int *row_ptr, const int *rows, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m)
    y[t] = picked_row(row_ptr, rows, val, t);
}

template <typename T> void dump(FILE *out, const T *d, int n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::fwrite(h.data(), sizeof(T), n, out);
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int n = 70001, m = 20011; // not multiples of the block size
  std::vector<int> rp(n + 1), col, idx(n), rows(m);
  std::vector<float> val, x(n);
  unsigned s = 4242;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  for (int r = 0; r < n; ++r) {
    rp[r] = (int)col.size();
    int len = rnd() % 50 == 0 ? 70 : rnd() % 11; // empty rows, a few long ones
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
  for (int &r : rows)
    r = rnd() % n;

  int *d_rp, *d_col, *d_idx, *d_rows;
  float *d_val, *d_x, *d_y, *d_g, *d_sub;
  double *d_sums;
  CHECK(cudaMalloc(&d_rp, rp.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_col, col.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
  CHECK(cudaMalloc(&d_rows, m * sizeof(int)));
  CHECK(cudaMalloc(&d_val, val.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_g, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sub, m * sizeof(float)));
  CHECK(cudaMalloc(&d_sums, n * sizeof(double)));
  CHECK(cudaMemcpy(d_rp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_rows, rows.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_y, 0xff, n * sizeof(float))); // poison

  const Csr a{d_rp, d_col, d_val};
  FILE *out = std::fopen(argv[1], "wb");
  for (int round = 0; round < 2; ++round) {
    for (int rep = 0; rep < 3; ++rep) { // a miss, then cache hits
      spmv_callee<<<(n + 255) / 256, 256>>>(n, d_rp, d_col, d_val, d_x, d_y);
      gather_deep<<<(n + 127) / 128, 128>>>(n, d_x, d_idx, d_g);
      row_sums<<<64, 256>>>(n, a, d_sums);
      subset_sums<<<(m + 255) / 256, 256>>>(m, d_rp, d_rows, d_val, d_sub);
      CHECK(cudaGetLastError());
      dump(out, d_y, n);
      dump(out, d_g, n);
      dump(out, d_sums, n);
      dump(out, d_sub, m);
    }
    // New values: every copy of val and x must be refreshed, not reused.
    for (float &v : val)
      v *= -0.5f;
    for (float &v : x)
      v += 0.25f;
    CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::fclose(out);
  return 0;
}
