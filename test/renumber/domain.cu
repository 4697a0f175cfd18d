// Program-wide renumbering: a file whose kernels share a neighbour list and
// index their particles by thread is given hooks that let the runtime keep the
// particles, the list and the per-particle arrays in the list's locality order
// across launches. Each launch names what its kernel does with each pointer
// (a table: 1 elements, 2 numbers, 3 both, 4 other, +128 written); a kernel
// whose result depends on how its elements are numbered (a reduction in
// shared memory, the thread index in arithmetic) gets its arrays back as
// numbered; copies name the arrays they touch.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix %s -- %stub -DALIAS 2> %t.alias.err | sed "s,//.*,," | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=ALIAS --input-file=%t.alias.err
// RUN: %irregfix %s -- %stub -DHELPER 2> %t.helper.err | sed 's,// CHECK.*,,' | FileCheck %s --check-prefix=HELPER
// RUN: FileCheck %s --check-prefix=HELPER-REMARK --input-file=%t.helper.err
// RUN: %irregfix %s -- %stub -DPARAMETER 2> %t.param.err | sed "s,//.*,," | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=PARAMETER --input-file=%t.param.err
#include <cuda_runtime.h>

// Each particle's cell, from its own position.
__global__ void bin(int n, const float4 *pos, float scale, int *cell_of, int *cell_count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = static_cast<int>(pos[i].x * scale);
    cell_of[i] = c;
    atomicAdd(&cell_count[c], 1);
  }
}

// Particles near each one, from the cells: the list holds particle numbers.
__global__ void neighbours(int n, const float4 *pos, const int *cell_start, const int *cell_atoms,
                           const int *cell_of, int *count, int *list) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int c = cell_of[t], found = 0;
    for (int k = cell_start[c]; k < cell_start[c + 1]; ++k) {
      int q = cell_atoms[k];
      if (q != t && pos[q].y - pos[t].y < 1.0f && found < 16)
        list[found++ * n + t] = q;
    }
    count[t] = found;
  }
}

// The neighbour list's site: the order comes from it.
__global__ void forces(int n, const int *count, const int *list, const float4 *pos, float4 *force) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 f = pos[t];
    f.x = 0.f;
    for (int j = 0; j < count[t]; ++j) {
      float4 p = pos[list[j * n + t]];
      f.x += p.x - pos[t].x;
    }
    force[t] = f;
  }
}

__global__ void move(int n, float4 *pos, float4 *vel, const float4 *force, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    vel[i].x += dt * force[i].x;
    pos[i].x += dt * vel[i].x;
  }
}

// Sums in a fixed tree: the sum depends on which particles share a block.
__global__ void kinetic(int n, const float4 *vel, float *out) {
  __shared__ float part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? vel[i].x * vel[i].x : 0.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int k = 0; k < 256; ++k)
      s += part[k];
    out[blockIdx.x] = s;
  }
}

// The thread index as a value: particle 0 is special.
__global__ void pin_first(int n, float4 *vel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i == 0)
    vel[i].x = 0.f;
}

// A template: its launches get the arrays back as numbered (and the tool asks
// no size of a type that depends on its parameters).
template <class T> __global__ void scale(int n, T *a, T s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= s;
}

#ifdef HELPER
// A function of the file that only its main calls: its parameters hold what
// the callers pass, and are followed there.
static void advance(int n, float4 *pos, float4 *vel, float4 *force, const int *count, const int *list) {
  forces<<<(n + 255) / 256, 256>>>(n, count, list, pos, force);
  move<<<(n + 255) / 256, 256>>>(n, pos, vel, force, 0.01f);
}
#endif

#ifdef PARAMETER
void run(int n, float4 *d_pos, float4 *d_vel, float4 *d_force, int *d_count, int *d_list) {
  forces<<<(n + 255) / 256, 256>>>(n, d_count, d_list, d_pos, d_force);
  move<<<(n + 255) / 256, 256>>>(n, d_pos, d_vel, d_force, 0.01f);
}
#else
int main() {
  const int n = 1 << 16, cells = 64;
  float4 *d_pos = nullptr, *d_vel = nullptr, *d_force = nullptr;
  int *d_cell_of = nullptr, *d_cell_count = nullptr, *d_cell_start = nullptr, *d_cell_atoms = nullptr;
  int *d_count = nullptr, *d_list = nullptr;
  float *d_out = nullptr;
  static float4 h_pos[1 << 16];
  cudaMalloc(&d_pos, n * sizeof(float4));
  cudaMalloc(&d_vel, n * sizeof(float4));
  cudaMalloc(&d_force, n * sizeof(float4));
  cudaMalloc(&d_cell_of, n * sizeof(int));
  cudaMalloc(&d_cell_count, cells * sizeof(int));
  cudaMalloc(&d_cell_start, (cells + 1) * sizeof(int));
  cudaMalloc(&d_cell_atoms, n * sizeof(int));
  cudaMalloc(&d_count, n * sizeof(int));
  cudaMalloc(&d_list, 16 * n * sizeof(int));
  cudaMalloc(&d_out, 256 * sizeof(float));
#ifdef ALIAS
  float4 *shown = d_pos;
#endif
  cudaMemcpy(d_pos, h_pos, n * sizeof(float4), cudaMemcpyHostToDevice);
  for (int step = 0; step < 100; ++step) {
    bin<<<(n + 255) / 256, 256>>>(n, d_pos, 8.0f, d_cell_of, d_cell_count);
    neighbours<<<(n + 255) / 256, 256>>>(n, d_pos, d_cell_start, d_cell_atoms, d_cell_of, d_count, d_list);
#ifdef HELPER
    advance(n, d_pos, d_vel, d_force, d_count, d_list);
#else
    forces<<<(n + 255) / 256, 256>>>(n, d_count, d_list, d_pos, d_force);
    move<<<(n + 255) / 256, 256>>>(n, d_pos, d_vel, d_force, 0.01f);
#endif
    pin_first<<<(n + 255) / 256, 256>>>(n, d_vel);
    scale<float><<<1, 256>>>(256, d_out, 0.5f);
  }
  kinetic<<<(n + 255) / 256, 256>>>(n, d_vel, d_out);
  cudaMemcpy(h_pos, d_pos, n * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaFree(d_pos);
  return 0;
}
#endif

// CHECK:      // irregfix: what each kernel does with its pointers, for program-wide renumbering: the runtime
// CHECK:      static const unsigned char __irregfix_roles_0[] = {1, 129, 132};
// CHECK-NEXT: static const unsigned short __irregfix_sizes_0[] = {16, 4, 4};
// CHECK-NEXT: static const irregfix::NumberingKernel __irregfix_numbering_0 = {"bin", nullptr, __irregfix_roles_0, __irregfix_sizes_0, -1, -1, -1, 1, 0};
// CHECK:      static const unsigned char __irregfix_roles_1[] = {1, 4, 2, 1, 129, 131};
// CHECK:      __irregfix_numbering_1 = {"neighbours", nullptr,
// CHECK:      static const unsigned char __irregfix_roles_2[] = {1, 3, 1, 129};
// CHECK:      __irregfix_numbering_2 = {"forces", nullptr, __irregfix_roles_2, __irregfix_sizes_2, 1, 0, -1, 1, 0};
// CHECK:      __irregfix_numbering_3 = {"move", nullptr,
// CHECK:      __irregfix_numbering_4 = {"pin_first", "it compares element number 'i' with a value that is none ('i == 0')",
// CHECK:      __irregfix_numbering_5 = {"scale", "it is a template",
// CHECK:      __irregfix_numbering_6 = {"kinetic", "it uses shared memory",
// CHECK:      int main() {
// CHECK:      irregfix_host_access(d_pos);
// CHECK-NEXT: cudaMemcpy(d_pos, h_pos, n * sizeof(float4), cudaMemcpyHostToDevice);
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_0, (long long)(n), 0, {d_pos, d_cell_of, d_cell_count});
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_2, (long long)(n), 0, {d_count, d_list, d_pos, d_force});
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_4, (long long)(n), 0, {d_vel});
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_5, 0, 0, {d_out});
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_6, 0, 0, {d_vel, d_out});
// CHECK:      irregfix_host_access(d_pos);
// CHECK-NEXT: cudaMemcpy(h_pos, d_pos, n * sizeof(float4), cudaMemcpyDeviceToHost);
// REMARK: remark: program-wide renumbering: the runtime may keep 'd_pos', 'd_cell_of', 'd_cell_atoms', 'd_count', 'd_list', 'd_force', 'd_vel' in the locality order of 'forces''s neighbour list
// REMARK-SAME: these launches get them back as numbered: pin_first (it compares element number 'i' with a value that is none ('i == 0')); scale (it is a template); kinetic (it uses shared memory)

// HELPER:      static void advance(int n, float4 *pos, float4 *vel, float4 *force, const int *count, const int *list) {
// HELPER:      irregfix::numbered_launch(__irregfix_numbering_{{[0-9]+}}, (long long)(n), 0, {count, list, pos, force});
// HELPER-REMARK: remark: program-wide renumbering: the runtime may keep 'count', 'list', 'pos', 'force', 'vel', 'd_pos', 'd_cell_of', 'd_cell_atoms', 'd_count', 'd_list', 'd_force', 'd_vel' in the locality order

// NONE-NOT: numbered_launch
// NONE-NOT: irregfix_host_access
// ALIAS: remark: no program-wide renumbering by 'forces''s neighbour list: 'd_pos' is copied into 'shown'
// PARAMETER: remark: no program-wide renumbering by 'forces''s neighbour list: 'd_count' comes in as a parameter of 'run', which other files may call

// The report's row of the neighbour list's site names the arrays, or why none.
// RUN: %irregfix --report %s -- %stub | FileCheck %s --check-prefix=REPORT
// RUN: %irregfix --report %s -- %stub -DPARAMETER | FileCheck %s --check-prefix=REPORT-NONE
// REPORT: kernel=forces pattern=neighbors {{.*}} domain=d_pos,d_cell_of,d_cell_atoms,d_count,d_list,d_force,d_vel
// REPORT-NONE: kernel=forces pattern=neighbors {{.*}} domain="no: 'd_count' comes in as a parameter of 'run', which other files may call"
