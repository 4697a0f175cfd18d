// Members of two and three dimensions inside a struct in device memory, read
// through a pointer parameter at loaded rows: a gather in a row of
// `lib->coef` chosen by a loaded class, a loop over such a row bounded by a
// one-dimensional member, a gather whose index is read from a row of the
// two-dimensional `lib->next` (a chain), and a gather in the three-dimensional
// `lib->cube`. Each becomes an indexed site whose copies are read at the flat
// index; the output compiles with nvcc and links against the runtime. With a
// GPU it gives the same bits as the original kernels (IRREGFIX_DISABLE=1)
// under the selector, under each forced layout and under IRREGFIX_VERIFY,
// through a miss, a hit, a refresh after the whole struct is copied again
// (cudaMemcpy of sizeof(Lib)) and one after a kernel writes into it, with
// every kernel's launches transformed.
// REQUIRES: nvcc
// RUN: %irregfix_real --report %s -o %t.cu > %t.report 2>&1 -- -I %S/Inputs
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.report
// RUN: grep -q '__builtin_offsetof(Lib, coef)' %t.cu
// RUN: grep -q '__builtin_offsetof(Lib, cube)' %t.cu
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ %t.exe %t.auto.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.auto.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_STATS=1 %t.exe %t.ell.bin 2> %t.ell.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.ell.bin %}
// RUN: %if cuda-device %{ FileCheck %s --check-prefix=RAN --input-file=%t.ell.stats %}
// RUN: %if cuda-device %{ not grep -E "launches transformed 0,|fallbacks [1-9]" %t.ell.stats %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32 %t.exe %t.sell.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sell.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32s %t.exe %t.sigma.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sigma.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=locality %t.exe %t.locality.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.locality.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=lanes %t.exe %t.lanes.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.lanes.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 %t.exe %t.verify.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_VERIFY=1 %t.exe %t.verify-auto.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify-auto.bin %}

// REPORT-DAG: kernel=pick_in_row pattern=indexed offsets=- arrays=lib->coef verdict=transformed
// REPORT-DAG: kernel=row_sums pattern=indexed offsets=- arrays=lib->coef verdict=transformed
// REPORT-DAG: kernel=follow_next pattern=indexed offsets=- arrays=lib->weight verdict=transformed
// REPORT-DAG: kernel=corner pattern=indexed offsets=- arrays=lib->cube verdict=transformed
// REPORT-NOT: verdict=not-rewritten

// Each kernel ran on its copies (and none had 0 launches transformed).
// RAN-DAG: kernel pick_in_row pattern indexed layout ell
// RAN-DAG: kernel row_sums pattern indexed layout ell
// RAN-DAG: kernel follow_next pattern indexed layout ell
// RAN-DAG: kernel corner pattern indexed layout ell

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

constexpr int kClasses = 222;
constexpr int kWidth = 60;

struct Lib {
  int length[kClasses];          // how much of each row of coef is used
  float coef[kClasses][kWidth];
  int next[kClasses][kWidth];    // indices into weight
  float weight[1 << 12];
  float cube[8][4][16];
};

__global__ void pick_in_row(const Lib *lib, const int *cls, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = lib->coef[cls[t]][t % kWidth] * 2.0f;
}

__global__ void row_sums(const Lib *lib, const int *cls, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const int c = cls[t];
    float s = 0.f;
    for (int j = 0; j < lib->length[c]; ++j)
      s += lib->coef[c][j];
    out[t] = s;
  }
}

__global__ void follow_next(const Lib *lib, const int *cls, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = lib->weight[lib->next[cls[t]][t & 7]];
}

__global__ void corner(const Lib *lib, const int *cls, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = lib->cube[cls[t] & 7][t & 3][(cls[t] >> 3) & 15];
}

// Writes into the struct: the copies of its members are stale after it.
__global__ void scale_rows(Lib *lib) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < kClasses * kWidth)
    lib->coef[t / kWidth][t % kWidth] *= 0.75f;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int n = 50021;
  unsigned s = 977;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  std::vector<Lib> host(1);
  Lib &h = host[0];
  for (int c = 0; c < kClasses; ++c) {
    h.length[c] = static_cast<int>(rnd() % (kWidth + 1));
    for (int j = 0; j < kWidth; ++j) {
      h.coef[c][j] = (rnd() % 4000) / 1999.0f - 1.0f;
      h.next[c][j] = static_cast<int>(rnd() % (1 << 12));
    }
  }
  for (float &w : h.weight)
    w = (rnd() % 2000) / 999.0f - 1.0f;
  for (auto &plane : h.cube)
    for (auto &row : plane)
      for (float &v : row)
        v = (rnd() % 1000) / 333.0f;
  std::vector<int> cls(n);
  for (int &c : cls)
    c = static_cast<int>(rnd() % kClasses);

  Lib *d_lib;
  CHECK(cudaMalloc(&d_lib, sizeof(Lib)));
  CHECK(cudaMemcpy(d_lib, &h, sizeof(Lib), cudaMemcpyHostToDevice));
  int *d_cls = upload(cls);
  float *d_out;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));

  FILE *out = std::fopen(argv[1], "wb");
  const int blocks = (n + 127) / 128;
  for (int step = 0; step < 4; ++step) { // a miss, a hit, then the struct changes
    pick_in_row<<<blocks, 128>>>(d_lib, d_cls, d_out, n);
    CHECK(cudaGetLastError());
    save(out, d_out, n);
    row_sums<<<blocks, 128>>>(d_lib, d_cls, d_out, n);
    CHECK(cudaGetLastError());
    save(out, d_out, n);
    follow_next<<<blocks, 128>>>(d_lib, d_cls, d_out, n);
    CHECK(cudaGetLastError());
    save(out, d_out, n);
    corner<<<blocks, 128>>>(d_lib, d_cls, d_out, n);
    CHECK(cudaGetLastError());
    save(out, d_out, n);
    if (step == 1) { // the whole struct again, new values
      for (auto &row : h.coef)
        for (float &v : row)
          v = -v + 0.5f;
      for (auto &row : h.next)
        for (int &x : row)
          x = (x * 7 + 3) % (1 << 12);
      for (auto &plane : h.cube)
        for (auto &row : plane)
          for (float &v : row)
            v *= 1.5f;
      CHECK(cudaMemcpy(d_lib, &h, sizeof(Lib), cudaMemcpyHostToDevice));
    }
    if (step == 2)
      scale_rows<<<(kClasses * kWidth + 127) / 128, 128>>>(d_lib);
  }
  std::fclose(out);
  CHECK(cudaFree(d_lib));
  CHECK(cudaFree(d_cls));
  CHECK(cudaFree(d_out));
  return 0;
}
