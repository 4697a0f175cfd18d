// Lane-stride (vector CSR) products kept in program-wide renumbering beside
// a thread-per-row product over the same matrix and vectors: a randomly
// numbered 9-point stencil, multiplied for several rounds by eight lanes a
// row as a block's row of threads in x, by a warp a row over a 1-D grid
// (tid / 32) and by a thread a row. The rewritten program, with the domain
// formed at the first launch and every copy checked (IRREGFIX_VERIFY), writes
// the same bits as the original compiled as it is.
// REQUIRES: nvcc
// RUN: %irregfix_real %s -o %t.cu -- -I %S/Inputs 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %nvcc -I %S/Inputs -o %t.original.exe %s
// RUN: %if cuda-device %{ %t.original.exe %t.original.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_DOMAIN=1 IRREGFIX_VERIFY=1 IRREGFIX_STATS=1 %t.exe %t.domain.bin 2> %t.domain.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.domain.bin %}
// RUN: %if cuda-device %{ FileCheck %s --input-file=%t.domain.stats %}
// RUN: %if cuda-device %{ env IRREGFIX_VERIFY=1 %t.exe %t.auto.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.auto.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_DOMAIN=0 %t.exe %t.numbered.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.numbered.bin %}
// REMARK: remark: program-wide renumbering: the runtime may keep 'd_rp', 'd_col', 'd_val', 'd_x', 'd_y' in the locality order
// REMARK-NOT: get them back
// The lane kernels ran on renumbered arrays; no stale copy, no difference.
// CHECK-NOT: IRREGFIX_VERIFY
// CHECK: irregfix: program-wide renumbering: {{[0-9]+}} elements in a locality order
// CHECK-NEXT: irregfix:   {{[1-9][0-9]*}} of {{[0-9]+}} launches over it ran renumbered

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "e2e_support.h"

constexpr int kLanes = 8;
constexpr int kRowsPerBlock = 32;

// Eight lanes a row: the row is the block's row of threads, the lane threadIdx.x.
__global__ void block_rows(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  int m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < n) {
    int begin = rp[m];
    int end = rp[m + 1];
    float part = 0.0f;
    for (int k = begin + threadIdx.x; k < end; k += kLanes)
      part += val[k] * x[col[k]];
#pragma unroll
    for (int o = kLanes >> 1; o > 0; o >>= 1)
      part += __shfl_down_sync(0xffffffff, part, o, kLanes);
    if (threadIdx.x == 0)
      y[m] = part;
  }
}

// A warp a row over a 1-D grid.
__global__ void warp_rows(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = tid / 32, lane = tid % 32;
  if (row < n) {
    float part = 0.0f;
    for (int k = rp[row] + lane; k < rp[row + 1]; k += 32)
      part += val[k] * x[col[k]];
    for (int o = 16; o > 0; o >>= 1)
      part += __shfl_down_sync(0xffffffff, part, o);
    if (lane == 0)
      y[row] = part;
  }
}

// A thread a row.
__global__ void thread_rows(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = rp[row]; k < rp[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

__global__ void blend(int n, float a, const float *y, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = y[i] + a * x[i];
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  // A side x side grid, its points numbered at random; every warp's rows lie below n (full shuffle masks).
  const int side = 384, n = side * side;
  unsigned s = 2024;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  std::vector<int> id(n);
  for (int i = 0; i < n; ++i)
    id[i] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(id[i], id[rnd() % (i + 1)]);
  std::vector<int> at(n);
  for (int g = 0; g < n; ++g)
    at[id[g]] = g;
  std::vector<int> rp(n + 1), col;
  std::vector<float> val, x(n);
  for (int r = 0; r < n; ++r) {
    rp[r] = static_cast<int>(col.size());
    const int gx = at[r] % side, gy = at[r] / side;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (gx + dx >= 0 && gx + dx < side && gy + dy >= 0 && gy + dy < side) {
          col.push_back(id[(gy + dy) * side + gx + dx]);
          val.push_back(((rnd() >> 8) % 2001) / 9000.0f - 0.111f);
        }
  }
  rp[n] = static_cast<int>(col.size());
  for (float &v : x)
    v = ((rnd() >> 8) % 2001) / 1000.0f - 1.0f;

  int *d_rp = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_rp, rp.size() * sizeof(int));
  cudaMalloc(&d_col, col.size() * sizeof(int));
  cudaMalloc(&d_val, val.size() * sizeof(float));
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  cudaMemcpy(d_rp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_y, 0, n * sizeof(float));

  const dim3 groups(kLanes, kRowsPerBlock);
  for (int round = 0; round < 6; ++round) {
    block_rows<<<(n + kRowsPerBlock - 1) / kRowsPerBlock, groups>>>(n, d_rp, d_col, d_val, d_x, d_y);
    blend<<<(n + 255) / 256, 256>>>(n, 0.5f, d_y, d_x);
    warp_rows<<<(n * 32 + 255) / 256, 256>>>(n, d_rp, d_col, d_val, d_x, d_y);
    blend<<<(n + 255) / 256, 256>>>(n, 0.5f, d_y, d_x);
    thread_rows<<<(n + 255) / 256, 256>>>(n, d_rp, d_col, d_val, d_x, d_y);
    blend<<<(n + 255) / 256, 256>>>(n, 0.5f, d_y, d_x);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // What the program reads back: both vectors, and the matrix as it gave it.
  std::vector<float> hx(n), hy(n), hval(val.size());
  std::vector<int> hcol(col.size());
  cudaMemcpy(hx.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hy.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hval.data(), d_val, val.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hcol.data(), d_col, col.size() * sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(cudaGetLastError());
  FILE *out = std::fopen(argv[1], "wb");
  if (!out)
    return 1;
  std::fwrite(hx.data(), sizeof(float), n, out);
  std::fwrite(hy.data(), sizeof(float), n, out);
  std::fwrite(hval.data(), sizeof(float), hval.size(), out);
  std::fwrite(hcol.data(), sizeof(int), hcol.size(), out);
  std::fclose(out);
  return hval == val && hcol == col ? 0 : 1;
}
