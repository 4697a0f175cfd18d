// Structures read through a neighbour list and a gather, rewritten into copies
// of field pieces: the output compiles with nvcc and links against the runtime.
// With a GPU it gives the same bits as the original kernels (IRREGFIX_DISABLE=1)
// through misses, hits and refreshes after the bodies move (cudaMemcpy, and a
// kernel that writes them), also under IRREGFIX_VERIFY.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: grep -q 'irregfix::prepare_neighbors_field[s](' %t.cu
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_STATS=1 %t.exe %t.irregfix.bin 2> %t.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.irregfix.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 %t.exe %t.verify.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify.bin %}
// RUN: %if cuda-device %{ FileCheck %s --input-file=%t.stats %}
// CHECK: gravity

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

struct Body { float x, y, z, mass, vx, vy, vz; int kind; };

__global__ void gravity(int n, int m, const int *__restrict__ nb, const Body *__restrict__ bodies, float *__restrict__ ax) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float a = 0.f;
    for (int j = 0; j < m; ++j) {
      int q = nb[j * n + t];
      if (q >= 0 && bodies[q].kind != 0)
        a += bodies[q].mass * (bodies[q].x - bodies[t].x + bodies[q].y + bodies[q].z);
    }
    ax[t] = a;
  }
}

__global__ void nearest(int n, const int *__restrict__ count, const int *__restrict__ nb, const Body *__restrict__ bodies, float *__restrict__ best) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float d = 1e30f;
  for (int j = 0; j < count[t]; ++j) {
    Body other = bodies[nb[j * n + t]];
    float r = other.x * other.x + other.vx * other.vx;
    d = r < d ? r : d;
  }
  best[t] = d;
}

__global__ void pick_mass(int n, const int *__restrict__ pick, const Body *__restrict__ bodies, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = bodies[pick[t]].mass * bodies[pick[t]].vz;
}

__global__ void drift(int n, Body *bodies) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    bodies[t].x += 0.01f * bodies[t].vx;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int n = 50021, m = 12;
  unsigned s = 777;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  auto val = [&] { return (rnd() % 2000) / 999.0f - 1.0f; };
  std::vector<Body> bodies(n);
  for (Body &b : bodies)
    b = Body{val(), val(), val(), 1.0f + val(), val(), val(), val(), static_cast<int>(rnd() % 3)};
  std::vector<int> nb(static_cast<size_t>(n) * m), count(n), pick(n);
  for (int t = 0; t < n; ++t) {
    count[t] = static_cast<int>(rnd() % (m + 1));
    pick[t] = static_cast<int>(rnd() % n);
    for (int j = 0; j < m; ++j)
      nb[static_cast<size_t>(j) * n + t] = j < count[t] ? static_cast<int>(rnd() % n) : -1;
  }
  Body *d_bodies;
  int *d_nb, *d_count, *d_pick;
  float *d_ax, *d_best, *d_mass;
  CHECK(cudaMalloc(&d_bodies, n * sizeof(Body)));
  CHECK(cudaMalloc(&d_nb, nb.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_count, n * sizeof(int)));
  CHECK(cudaMalloc(&d_pick, n * sizeof(int)));
  CHECK(cudaMalloc(&d_ax, n * sizeof(float)));
  CHECK(cudaMalloc(&d_best, n * sizeof(float)));
  CHECK(cudaMalloc(&d_mass, n * sizeof(float)));
  CHECK(cudaMemcpy(d_bodies, bodies.data(), n * sizeof(Body), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_nb, nb.data(), nb.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_count, count.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_pick, pick.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  std::vector<float> h(n);
  FILE *out = std::fopen(argv[1], "wb");
  auto save = [&](const float *d) {
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::fwrite(h.data(), sizeof(float), n, out);
  };
  const unsigned grid = (n + 127) / 128;
  for (int step = 0; step < 4; ++step) { // a miss, a hit, then the bodies move
    gravity<<<grid, 128>>>(n, m, d_nb, d_bodies, d_ax);
    nearest<<<grid, 128>>>(n, d_count, d_nb, d_bodies, d_best);
    pick_mass<<<grid, 128>>>(n, d_pick, d_bodies, d_mass);
    CHECK(cudaGetLastError());
    save(d_ax);
    save(d_best);
    save(d_mass);
    if (step == 1) {
      for (Body &b : bodies)
        b.mass *= 0.5f;
      CHECK(cudaMemcpy(d_bodies, bodies.data(), n * sizeof(Body), cudaMemcpyHostToDevice));
    }
    if (step == 2)
      drift<<<grid, 128>>>(n, d_bodies);
  }
  std::fclose(out);
  return 0;
}
