// Copies split into field pieces, rewritten with the real CUDA headers,
// compile with nvcc without a warning: the piece types, their static_asserts
// on the layout, the pieces' table and a local built from the pieces.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: grep -c 'irregfix::prepare_neighbors_field[s](' %t.cu | grep -qx 2
// RUN: grep -c 'irregfix::prepare_gather_field[s](' %t.cu | grep -qx 1
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

namespace sim {
struct Body { float x, y, z, mass, vx, vy, vz; int kind; };
}
struct Sample { double value; float lo, hi; double weight; int tag; long long id; };

__global__ void gravity(int n, int m, const int *__restrict__ nb, const sim::Body *__restrict__ bodies, float *__restrict__ ax) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float a = 0.f;
    for (int j = 0; j < m; ++j) {
      int q = nb[j * n + t];
      if (bodies[q].kind != 0)
        a += bodies[q].mass * (bodies[q].x + bodies[q].y + bodies[q].z);
    }
    ax[t] = a;
  }
}

__global__ void nearest(int n, const int *__restrict__ count, const int *__restrict__ nb, const sim::Body *__restrict__ bodies, float *__restrict__ best) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float d = 1e30f;
  for (int j = 0; j < count[t]; ++j) {
    sim::Body other = bodies[nb[j * n + t]];
    float r = other.x * other.x + other.vx * other.vx;
    d = r < d ? r : d;
  }
  best[t] = d;
}

__global__ void weigh(int n, const int *__restrict__ pick, const Sample *__restrict__ s, double *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = s[pick[t]].value * s[pick[t]].weight + s[pick[t]].id;
}

void run(int n, int m, const int *count, const int *nb, const sim::Body *bodies, float *ax, float *best,
         const int *pick, const Sample *s, double *out) {
  gravity<<<(n + 255) / 256, 256>>>(n, m, nb, bodies, ax);
  nearest<<<(n + 255) / 256, 256>>>(n, count, nb, bodies, best);
  weigh<<<(n + 255) / 256, 256>>>(n, pick, s, out);
}
