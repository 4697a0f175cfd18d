// Which neighbour-list kernels may stage their copy in shared memory (the
// sharing layout), both ways. A shareable kernel declares the stage, calls
// irregfix::stage_shared first thing and reads through irregfix::read_shared;
// its site info says kSiteShareable and names the transformed kernel, and its
// launches add irregfix::shared_bytes() to their dynamic shared memory. Any
// other kernel reads at irregfix::neighbor_slot(), and a remark says why.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

// Static shared memory of its own is fine: the runtime counts it.
__global__ void with_static_shared(int n, const int *nb, const float *mass, float *rho) {
  __shared__ float scale[1];
  if (threadIdx.x == 0) scale[0] = 2.0f;
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = 0.f;
  for (int j = 0; j < 8; ++j)
    r += mass[nb[j * n + t]];
  rho[t] = r * scale[0];
}
// CHECK-LABEL: __global__ void with_static_shared_irregfix(
// CHECK-NEXT:    extern __shared__ __align__(16) unsigned char __irregfix_stage[];
// CHECK-NEXT:    irregfix::stage_shared(__irregfix_v0, __irregfix_v0_mass, __irregfix_stage, (blockIdx.x + __irregfix_block_offset));
// CHECK-NEXT:    __shared__ float scale[1];
// CHECK:           r += irregfix::read_shared(__irregfix_v0, __irregfix_v0_mass, __irregfix_stage, t, j);
// CHECK: static const irregfix::SiteInfo __irregfix_site_with_static_shared_0 = {"shareable.cu:{{[0-9]+}}:10", "with_static_shared", "neighbors", irregfix::kSiteChunkable | irregfix::kSiteShareable, (const void *)with_static_shared_irregfix, "mass,nb"};
// CHECK: with_static_shared_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem + irregfix::shared_bytes(__irregfix_v0), __irregfix_stream>>>(
// WHY: shareable.cu:{{[0-9]+}}:10: remark: blocks of 'with_static_shared' may stage the elements their threads share in shared memory (sharing layout)

// Dynamic shared memory of its own: the stage would overlap it.
__global__ void with_dynamic_shared(int n, const int *nb, const float *mass, float *rho) {
  extern __shared__ float tile[];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = 0.f;
  if (t >= n) return;
  float r = 0.f;
  for (int j = 0; j < 8; ++j)
    r += mass[nb[j * n + t]];
  rho[t] = r + tile[threadIdx.x];
}
// CHECK-LABEL: __global__ void with_dynamic_shared_irregfix(
// CHECK-NOT:     __irregfix_stage
// CHECK:           r += __irregfix_v0_mass[irregfix::neighbor_slot(__irregfix_v0, t, j)];
// CHECK: static const irregfix::SiteInfo __irregfix_site_with_dynamic_shared_0 = {"shareable.cu:{{[0-9]+}}:10", "with_dynamic_shared", "neighbors", irregfix::kSiteChunkable, nullptr, "mass,nb"};
// CHECK: with_dynamic_shared_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(
// WHY: remark: no sharing layout for 'with_dynamic_shared': it uses dynamic shared memory ('tile')

// ... also when a function it calls declares it.
__device__ float first_of_tile() {
  extern __shared__ float dyn[];
  return dyn[0];
}
__global__ void callee_dynamic_shared(int n, const int *nb, const float *mass, float *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = first_of_tile();
  for (int j = 0; j < 8; ++j)
    r += mass[nb[j * n + t]];
  rho[t] = r;
}
// WHY: remark: no sharing layout for 'callee_dynamic_shared': it uses dynamic shared memory ('dyn')

// Reading gridDim: blocks are not launched in chunks, and a thread may work
// for rows of other blocks.
__global__ void reads_grid(int n, const int *nb, const float *mass, float *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = gridDim.x > 1 ? 0.f : 1.f;
  for (int j = 0; j < 8; ++j)
    r += mass[nb[j * n + t]];
  rho[t] = r;
}
// WHY: remark: no sharing layout for 'reads_grid': it reads 'gridDim'

// Two arrays read through the neighbour list are two sites: the first is
// staged, the second read at slots.
__global__ void two_arrays(int n, const int *nb, const float *mass, const float *charge, float *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = 0.f;
  for (int j = 0; j < 8; ++j) {
    int q = nb[j * n + t];
    r += mass[q] * charge[q];
  }
  rho[t] = r;
}
// CHECK-LABEL: __global__ void two_arrays_irregfix(
// CHECK:           r += irregfix::read_shared(__irregfix_v0, __irregfix_v0_mass, __irregfix_stage, t, j) * __irregfix_v1_charge[irregfix::neighbor_slot(__irregfix_v1, t, j)];
// CHECK: static const irregfix::SiteInfo __irregfix_site_two_arrays_0 = {{.*}}irregfix::kSiteChunkable | irregfix::kSiteShareable, (const void *)two_arrays_irregfix, "mass,nb"};
// CHECK-NEXT: static const irregfix::SiteInfo __irregfix_site_two_arrays_1 = {{.*}}"neighbors", irregfix::kSiteChunkable, nullptr, "charge,nb"};
// WHY: remark: blocks of 'two_arrays' may stage

template <class T>
__global__ void templated(int n, const int *nb, const T *mass, T *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  T r = 0;
  for (int j = 0; j < 8; ++j)
    r += mass[nb[j * n + t]];
  rho[t] = r;
}
// WHY: remark: no sharing layout for 'templated': it is a template

// A range site: sharing is not proposed, and nothing is said about it.
__global__ void spmv(int n, const int *row, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k];
    y[t] = s;
  }
}
// WHY-NOT: sharing layout for 'spmv'
// CHECK-LABEL: __global__ void spmv_irregfix(
// CHECK-NOT:     __irregfix_stage
// CHECK:       irregfix::begin_launch(__irregfix_site_spmv_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&

void run(int n, const int *nb, const float *mass, const float *charge, float *rho, const int *row, float *y) {
  with_static_shared<<<(n + 255) / 256, 256>>>(n, nb, mass, rho);
  with_dynamic_shared<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(n, nb, mass, rho);
  callee_dynamic_shared<<<(n + 255) / 256, 256, 4>>>(n, nb, mass, rho);
  reads_grid<<<(n + 255) / 256, 256>>>(n, nb, mass, rho);
  two_arrays<<<(n + 255) / 256, 256>>>(n, nb, mass, charge, rho);
  templated<float><<<(n + 255) / 256, 256>>>(n, nb, mass, rho);
  spmv<<<(n + 255) / 256, 256>>>(n, row, charge, y);
}
