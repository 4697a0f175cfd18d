// Guards whose bound the kernel computes into locals from its arguments, end to
// end: an indexed gather under `idx < per_row_ops` where `per_row_ops = ops *
// (channels / 4)` (a row of channels read in fours at a loaded row), and a range
// loop under `t < rows`, `rows = blocks_of_rows * (tail > 0 ? per_block + 1 :
// per_block)`. The launch spells each bound through the locals' initialisers.
// With a GPU the rewritten program gives the original's bits under the selector
// and each forced layout, and every kernel ran transformed.
// REQUIRES: nvcc
// RUN: %irregfix_real --report %s -o %t.cu > %t.report 2>&1 -- -I %S/Inputs
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.report
// RUN: FileCheck %s --check-prefix=LAUNCH --input-file=%t.cu
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ %t.exe %t.auto.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.auto.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 IRREGFIX_STATS=1 %t.exe %t.ell.bin 2> %t.ell.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.ell.bin %}
// RUN: %if cuda-device %{ not grep "launches transformed 0," %t.ell.stats %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32s %t.exe %t.sigma.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sigma.bin %}

// REPORT-DAG: kernel=pick_fours {{.*}}verdict=transformed
// REPORT-DAG: kernel=row_sums {{.*}}verdict=transformed
// REPORT-DAG: kernel=moving_bound pattern=gather offsets=rows arrays=table verdict=refused reason="the guard bound is not computable from the kernel's arguments"

// LAUNCH-DAG: (long long)((ops * (channels / 4)))
// LAUNCH-DAG: (long long)((blocks_of_rows * (tail > 0 ? per_block + 1 : per_block)))

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

__global__ void pick_fours(int ops, int channels, const int *rows, const float *table, float *out) {
  const int fours = channels / 4;
  const int per_row_ops = ops * fours;
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < per_row_ops) {
    const int op = idx / fours, four = idx % fours;
    out[idx] = table[rows[op] * channels + four * 4] * 0.5f;
  }
}

__global__ void row_sums(int blocks_of_rows, int per_block, int tail, const int *rp, const float *val, float *out) {
  int rows = blocks_of_rows * (tail > 0 ? per_block + 1 : per_block);
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= rows)
    return;
  float s = 0.0f;
  for (int k = rp[t]; k < rp[t + 1]; ++k)
    s += val[k];
  out[t] = s;
}

// A bound the kernel changes after its declaration: refused (never launched).
__global__ void moving_bound(int n, const int *rows, const float *table, float *out) {
  int limit = n;
  limit -= 1;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < limit)
    out[t] = table[rows[t]];
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  unsigned s = 77;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  auto value = [&] { return (rnd() % 2000) / 999.0f - 1.0f; };
  FILE *out = std::fopen(argv[1], "wb");

  const int ops = 5000, channels = 36, table_rows = 3000;
  std::vector<int> rows(ops);
  std::vector<float> table((size_t)table_rows * channels);
  for (int &r : rows)
    r = rnd() % table_rows;
  for (float &v : table)
    v = value();
  int *d_rows = upload(rows);
  float *d_table = upload(table), *d_out = nullptr;
  const int picks = ops * (channels / 4);
  CHECK(cudaMalloc(&d_out, (size_t)picks * sizeof(float)));
  for (int rep = 0; rep < 3; ++rep) {
    pick_fours<<<(picks + 127) / 128, 128>>>(ops, channels, d_rows, d_table, d_out);
    CHECK(cudaGetLastError());
    save(out, d_out, picks);
  }

  const int blocks_of_rows = 700, per_block = 9, tail = 1, n = blocks_of_rows * (per_block + 1);
  std::vector<int> rp(n + 1);
  std::vector<float> val;
  for (int t = 0; t < n; ++t) {
    rp[t] = (int)val.size();
    for (int e = rnd() % 17; e > 0; --e)
      val.push_back(value());
  }
  rp[n] = (int)val.size();
  int *d_rp = upload(rp);
  float *d_val = upload(val), *d_sums = nullptr;
  CHECK(cudaMalloc(&d_sums, n * sizeof(float)));
  for (int rep = 0; rep < 3; ++rep) {
    row_sums<<<(n + 127) / 128, 128>>>(blocks_of_rows, per_block, tail, d_rp, d_val, d_sums);
    CHECK(cudaGetLastError());
    save(out, d_sums, n);
  }

  std::fclose(out);
  return 0;
}
