// Arrays inside a struct in device memory, read through a pointer parameter
// (`tab->weight[keys[t]]`, a range loop over `tab->start` and `tab->vals`): the
// output names them by the pointer and the member's offset, compiles with nvcc
// and links against the runtime. With a GPU it gives the same bits as the
// original kernels (IRREGFIX_DISABLE=1) through a miss, a hit, a refresh after
// the whole struct is copied again (cudaMemcpy of sizeof(Table)) and one after
// a kernel writes into it, also under IRREGFIX_VERIFY.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: grep -c 'irregfix::prepare_gathe[r](' %t.cu | grep -qx 1
// RUN: grep -c 'irregfix::prepare_rang[e](' %t.cu | grep -qx 1
// RUN: grep -q '__builtin_offsetof(Table, weight)' %t.cu
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_STATS=1 %t.exe %t.irregfix.bin 2> %t.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.irregfix.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 %t.exe %t.verify.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify.bin %}
// RUN: %if cuda-device %{ FileCheck %s --input-file=%t.stats %}
// CHECK-DAG: lookup
// CHECK-DAG: row_sums

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

constexpr int kRows = 4096;

struct Table {
  int rows;
  float weight[1 << 14];
  int start[kRows + 1];
  float vals[1 << 16];
};

__global__ void lookup(const Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->weight[keys[t]] * 2.0f;
}

__global__ void row_sums(const Table *tab, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < kRows) {
    float s = 0.f;
    for (int e = tab->start[t]; e < tab->start[t + 1]; ++e)
      s += tab->vals[e];
    out[t] = s;
  }
}

__global__ void damp(Table *tab) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < (1 << 14))
    tab->weight[t] *= 0.75f;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int n = 50021;
  unsigned s = 4242;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  std::vector<Table> host(1);
  Table &h = host[0];
  h.rows = kRows;
  for (float &w : h.weight)
    w = (rnd() % 2000) / 999.0f - 1.0f;
  h.start[0] = 0;
  for (int r = 0; r < kRows; ++r)
    h.start[r + 1] = h.start[r] + static_cast<int>(rnd() % 33);
  for (float &v : h.vals)
    v = (rnd() % 4000) / 1999.0f - 1.0f;
  std::vector<int> keys(n);
  for (int &k : keys)
    k = static_cast<int>(rnd() % (1 << 14));
  Table *d_tab;
  int *d_keys;
  float *d_out, *d_sums;
  CHECK(cudaMalloc(&d_tab, sizeof(Table)));
  CHECK(cudaMalloc(&d_keys, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sums, kRows * sizeof(float)));
  CHECK(cudaMemcpy(d_tab, &h, sizeof(Table), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  std::vector<float> o(n);
  FILE *out = std::fopen(argv[1], "wb");
  auto save = [&](const float *d, int count) {
    CHECK(cudaMemcpy(o.data(), d, count * sizeof(float), cudaMemcpyDeviceToHost));
    std::fwrite(o.data(), sizeof(float), count, out);
  };
  for (int step = 0; step < 4; ++step) { // a miss, a hit, then the table changes
    lookup<<<(n + 127) / 128, 128>>>(d_tab, d_keys, d_out, n);
    row_sums<<<kRows / 128, 128>>>(d_tab, d_sums);
    CHECK(cudaGetLastError());
    save(d_out, n);
    save(d_sums, kRows);
    if (step == 1) { // the whole struct again, new values
      for (float &w : h.weight)
        w = -w;
      for (float &v : h.vals)
        v = v * 0.5f + 1.0f;
      CHECK(cudaMemcpy(d_tab, &h, sizeof(Table), cudaMemcpyHostToDevice));
    }
    if (step == 2)
      damp<<<(1 << 14) / 128, 128>>>(d_tab);
  }
  std::fclose(out);
  return 0;
}
