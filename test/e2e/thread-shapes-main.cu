// Thread spaces beyond the guarded 1-D index, end to end: a 2-D gather and a
// 3-D range loop over linear indices (n = nx * ny (* nz), from the guards), and
// a gather and a neighbour list in kernels without a guard (n = the launch's
// threads, the grid given as a dim3 variable and as an expression). Rewritten
// with the real CUDA headers, the output compiles with nvcc; with a GPU the
// rewritten program gives the same bits as the originals (IRREGFIX_DISABLE=1)
// under the selector and under each forced layout, and every kernel ran
// transformed.
// REQUIRES: nvcc
// RUN: %irregfix_real --report %s -o %t.cu > %t.report 2>&1 -- -I %S/Inputs
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.report
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ %t.exe %t.auto.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.auto.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_STATS=1 %t.exe %t.ell.bin 2> %t.ell.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.ell.bin %}
// RUN: %if cuda-device %{ FileCheck %s --check-prefix=RAN --input-file=%t.ell.stats %}
// RUN: %if cuda-device %{ not grep "launches transformed 0," %t.ell.stats %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32 %t.exe %t.sell.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sell.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32s %t.exe %t.sigma.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sigma.bin %}

// REPORT-DAG: kernel=smooth2d pattern=gather offsets=nb arrays=a verdict=transformed
// REPORT-DAG: kernel=rows3d pattern=range offsets=rp arrays=val verdict=transformed
// REPORT-DAG: kernel=pull_unguarded pattern=gather offsets=idx arrays=w verdict=transformed
// REPORT-DAG: kernel=md_unguarded pattern=neighbors offsets=nl arrays=pos verdict=transformed

// Each kernel ran on its copies (and none had 0 launches transformed).
// RAN-DAG: kernel smooth2d pattern gather layout ell
// RAN-DAG: kernel rows3d pattern range layout ell
// RAN-DAG: kernel pull_unguarded pattern gather layout ell
// RAN-DAG: kernel md_unguarded pattern neighbors layout ell

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

// A 2-D grid over an nx x ny image; each cell reads a neighbour chosen by nb.
__global__ void smooth2d(int nx, int ny, const int *nb, const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    int c = i + nx * j;
    out[c] = 0.5f * a[nb[c]] + 0.25f * a[c];
  }
}

// A 3-D grid of cells, each summing its CSR row; the guard returns early.
__global__ void rows3d(int nx, int ny, int nz, const int *rp, const float *val, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= nx || j >= ny || k >= nz)
    return;
  int c = (k * ny + j) * nx + i;
  float s = 0.0f;
  for (int e = rp[c]; e < rp[c + 1]; ++e)
    s += val[e];
  out[c] = s;
}

// No guard: the grid has exactly as many threads as elements.
__global__ void pull_unguarded(const int *idx, const float *w, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = 2.0f * w[idx[t]] - 1.0f;
}

// No guard, MD-style: a column-major neighbour list of at most m entries a thread.
__global__ void md_unguarded(int n, const int *cnt, const int *nl, const float4 *pos, float *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int q = 0; q < cnt[t]; ++q) {
    float4 p = pos[nl[q * n + t]];
    s += p.x - p.w;
  }
  f[t] = s;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  unsigned s = 2024;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  auto value = [&] { return (rnd() % 2000) / 999.0f - 1.0f; };
  FILE *out = std::fopen(argv[1], "wb");

  // 2-D: nx, ny not multiples of the block's 16 x 16.
  const int nx = 1001, ny = 517, cells = nx * ny;
  std::vector<int> nb(cells);
  std::vector<float> a(cells);
  for (int c = 0; c < cells; ++c) {
    nb[c] = rnd() % cells;
    a[c] = value();
  }
  int *d_nb = upload(nb);
  float *d_a = upload(a), *d_out2 = nullptr;
  CHECK(cudaMalloc(&d_out2, cells * sizeof(float)));
  dim3 block2(16, 16), grid2((nx + 15) / 16, (ny + 15) / 16);
  for (int rep = 0; rep < 3; ++rep) {
    smooth2d<<<grid2, block2>>>(nx, ny, d_nb, d_a, d_out2);
    CHECK(cudaGetLastError());
    save(out, d_out2, cells);
  }

  // 3-D: rows of 0 to 12 values.
  const int mx = 37, my = 29, mz = 23, cells3 = mx * my * mz;
  std::vector<int> rp(cells3 + 1);
  std::vector<float> val;
  for (int c = 0; c < cells3; ++c) {
    rp[c] = (int)val.size();
    for (int e = rnd() % 13; e > 0; --e)
      val.push_back(value());
  }
  rp[cells3] = (int)val.size();
  int *d_rp = upload(rp);
  float *d_val = upload(val), *d_out3 = nullptr;
  CHECK(cudaMalloc(&d_out3, cells3 * sizeof(float)));
  for (int rep = 0; rep < 3; ++rep) {
    rows3d<<<dim3((mx + 7) / 8, (my + 7) / 8, (mz + 3) / 4), dim3(8, 8, 4)>>>(mx, my, mz, d_rp, d_val, d_out3);
    CHECK(cudaGetLastError());
    save(out, d_out3, cells3);
  }

  // No guard: n a multiple of the block size, the grid a dim3 variable.
  const int n = 128 * 1000, m = 24;
  std::vector<int> idx(n), cnt(n), nl((size_t)m * n);
  std::vector<float4> pos(n);
  std::vector<float> w(n);
  for (int t = 0; t < n; ++t) {
    idx[t] = rnd() % n;
    w[t] = value();
    cnt[t] = rnd() % (m + 1);
    for (int q = 0; q < m; ++q)
      nl[(size_t)q * n + t] = rnd() % n;
    pos[t] = make_float4(value(), value(), value(), value());
  }
  int *d_idx = upload(idx), *d_cnt = upload(cnt), *d_nl = upload(nl);
  float4 *d_pos = upload(pos);
  float *d_w = upload(w);
  float *d_pull = nullptr, *d_f = nullptr;
  CHECK(cudaMalloc(&d_pull, n * sizeof(float)));
  CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  dim3 grid(n / 128);
  for (int rep = 0; rep < 3; ++rep) {
    pull_unguarded<<<grid, 128>>>(d_idx, d_w, d_pull);
    CHECK(cudaGetLastError());
    md_unguarded<<<n / 64, 64>>>(n, d_cnt, d_nl, d_pos, d_f);
    CHECK(cudaGetLastError());
    save(out, d_pull, n);
    save(out, d_f, n);
  }
  // Move the particles and change w: the copies must be refreshed, not reused.
  for (float4 &p : pos)
    p.x += 0.5f;
  for (float &v : w)
    v *= -0.5f;
  CHECK(cudaMemcpy(d_pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, w.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  pull_unguarded<<<grid, 128>>>(d_idx, d_w, d_pull);
  md_unguarded<<<n / 64, 64>>>(n, d_cnt, d_nl, d_pos, d_f);
  CHECK(cudaGetLastError());
  save(out, d_pull, n);
  save(out, d_f, n);
  std::fclose(out);
  return 0;
}
