// Scatter sites of every kind, rewritten with the real CUDA headers: an edge
// adding to both its end cells (two updates a thread), a subtraction, an
// assignment through a permutation and a kernel template. The output compiles
// with nvcc and links against the runtime; with a GPU, under
// IRREGFIX_DETERMINISTIC=1 (the executor at every launch) and IRREGFIX_VERIFY,
// it gives the bits of the original kernels (IRREGFIX_DISABLE=1): integer and
// integer-valued sums, whose order does not change them, and stores each
// element takes from one thread.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: grep -c '^ *irregfix::prepare_scatter' %t.cu | grep -qx 4
// RUN: grep -q 'irregfix::prepare_scatter_assign(' %t.cu
// RUN: %nvcc -I %S/Inputs -Werror all-warnings -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_DETERMINISTIC=1 IRREGFIX_VERIFY=1 IRREGFIX_STATS=1 %t.exe %t.irregfix.bin 2> %t.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.irregfix.bin %}
// RUN: %if cuda-device %{ FileCheck %s --input-file=%t.stats %}
// CHECK-DAG: kernel edge_flux pattern scatter
// CHECK-DAG: kernel drain pattern scatter
// CHECK-DAG: kernel place pattern scatter
// CHECK-DAG: kernel accumulate pattern scatter

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

__global__ void edge_flux(int edges, const int *a, const int *b, const int *u, int *r) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    const int flux = u[b[e]] - u[a[e]];
    atomicAdd(&r[a[e]], flux);
    atomicAdd(&r[b[e]], -flux);
  }
}

__global__ void drain(int n, const int *owner, const int *held, int *count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicSub(&count[owner[t]], held[t]);
}

__global__ void place(int n, const int *perm, const int *v, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && v[t] % 3 != 0)
    out[perm[t]] = v[t];
}

template <class T>
__global__ void accumulate(int n, const int *f, const T *w, T *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicAdd(&A[f[t]], w[t]);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const int cells = 50000, edges = 150000;
  unsigned long long state = 12345;
  auto rnd = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(state >> 33);
  };
  std::vector<int> a(edges), b(edges), u(cells), held(edges), perm(cells), v(cells);
  std::vector<double> w(edges);
  for (int e = 0; e < edges; ++e) {
    a[e] = static_cast<int>(rnd() % cells);
    b[e] = static_cast<int>(rnd() % cells);
    held[e] = static_cast<int>(rnd() % 100);
    w[e] = static_cast<double>(rnd() % 1000); // integer-valued: every order of the sum gives the same bits
  }
  for (int c = 0; c < cells; ++c) {
    u[c] = static_cast<int>(rnd() % 10000);
    perm[c] = c;
    v[c] = static_cast<int>(rnd() % 1000);
  }
  for (int c = cells - 1; c > 0; --c)
    std::swap(perm[c], perm[rnd() % (c + 1)]);
  int *d_a, *d_b, *d_u, *d_held, *d_perm, *d_v, *d_r, *d_count, *d_out, *d_ai;
  double *d_w, *d_ad;
  CHECK(cudaMalloc(&d_a, edges * sizeof(int)));
  CHECK(cudaMalloc(&d_b, edges * sizeof(int)));
  CHECK(cudaMalloc(&d_held, edges * sizeof(int)));
  CHECK(cudaMalloc(&d_w, edges * sizeof(double)));
  CHECK(cudaMalloc(&d_u, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_perm, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_v, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_r, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_count, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_out, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_ai, cells * sizeof(int)));
  CHECK(cudaMalloc(&d_ad, cells * sizeof(double)));
  CHECK(cudaMemcpy(d_a, a.data(), edges * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), edges * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_held, held.data(), edges * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, w.data(), edges * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_u, u.data(), cells * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_perm, perm.data(), cells * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_v, v.data(), cells * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_r, 0, cells * sizeof(int)));
  CHECK(cudaMemset(d_count, 0, cells * sizeof(int)));
  CHECK(cudaMemset(d_out, 0xff, cells * sizeof(int)));
  CHECK(cudaMemset(d_ai, 0, cells * sizeof(int)));
  CHECK(cudaMemset(d_ad, 0, cells * sizeof(double)));

  const unsigned edge_grid = (edges + 255) / 256, cell_grid = (cells + 255) / 256;
  for (int step = 0; step < 3; ++step) { // a miss, then hits (each launch writes what it updates)
    edge_flux<<<edge_grid, 256>>>(edges, d_a, d_b, d_u, d_r);
    drain<<<edge_grid, 256>>>(edges, d_a, d_held, d_count);
    place<<<cell_grid, 256>>>(cells, d_perm, d_v, d_out);
    accumulate<<<edge_grid, 256>>>(edges, d_b, d_held, d_ai);
    accumulate<double><<<edge_grid, 256>>>(edges, d_a, d_w, d_ad);
  }
  CHECK(cudaGetLastError());
  std::vector<int> h(cells);
  std::vector<double> hd(cells);
  FILE *out = std::fopen(argv[1], "wb");
  for (int *d : {d_r, d_count, d_out, d_ai}) {
    CHECK(cudaMemcpy(h.data(), d, cells * sizeof(int), cudaMemcpyDeviceToHost));
    std::fwrite(h.data(), sizeof(int), cells, out);
  }
  CHECK(cudaMemcpy(hd.data(), d_ad, cells * sizeof(double), cudaMemcpyDeviceToHost));
  std::fwrite(hd.data(), sizeof(double), cells, out);
  std::fclose(out);
  return 0;
}
