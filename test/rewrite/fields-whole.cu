// Structure elements the copy keeps whole, each with the reason: a union,
// bit-fields, a read field that is a nested structure or an array, an element
// read whole, a local that escapes, every field read. CUDA's vector types
// (float4) are whole without a word.
// RUN: %irregfix %s -- %stub 2>&1 >/dev/null | FileCheck %s -implicit-check-not="is copied as the fields"
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --check-prefix=CODE

#include <cuda_runtime.h>

union Bits { float f; int i; };
struct Packed { int a : 16; int b : 16; float c; float d; };
struct Vec3 { float x, y, z; };
struct Nested { Vec3 p; float m; float pad[3]; };
struct Body { float x, y, z, mass; };

__device__ float use(const Body &b) { return b.x; }

__global__ void k_union(int n, const int *__restrict__ b, const Bits *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]].f;
}
// CHECK: remark: 'a' is copied whole (4 bytes an element): 'Bits' is a union

__global__ void k_bits(int n, const int *__restrict__ b, const Packed *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]].c;
}
// CHECK: remark: 'a' is copied whole (12 bytes an element): 'Packed' has bit-fields

__global__ void k_nested(int n, const int *__restrict__ b, const Nested *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]].p.x;
}
// CHECK: remark: 'a' is copied whole (28 bytes an element): field 'p' is a nested structure

__global__ void k_array(int n, int m, const int *__restrict__ nb, const Nested *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s = 0;
  for (int j = 0; j < m; ++j) {
    Nested e = a[nb[j * n + t]];
    s += e.pad[1] + e.m;
  }
  out[t] = s;
}
// CHECK: remark: 'a' is copied whole (28 bytes an element): the local 'e': field 'pad' is an array

__global__ void k_whole(int n, const int *__restrict__ b, const Body *__restrict__ a, Body *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]];
}
// CHECK: remark: 'a' is copied whole (16 bytes an element): an element is read whole

__global__ void k_escapes(int n, int m, const int *__restrict__ nb, const Body *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s = 0;
  for (int j = 0; j < m; ++j) {
    Body me = a[nb[j * n + t]];
    s += use(me) + me.mass;
  }
  out[t] = s;
}
// CHECK: remark: 'a' is copied whole (16 bytes an element): the local 'me' is used whole

__global__ void k_address(int n, int m, const int *__restrict__ nb, const Body *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s = 0;
  for (int j = 0; j < m; ++j) {
    Body me = a[nb[j * n + t]];
    const float *y = &me.y;
    s += *y;
  }
  out[t] = s;
}
// CHECK: remark: 'a' is copied whole (16 bytes an element): the local 'me': field 'y' is used other than read as a value

__global__ void k_all(int n, const int *__restrict__ b, const Body *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]].x + a[b[t]].y + a[b[t]].z + a[b[t]].mass;
}
// CHECK: remark: 'a' is copied whole (16 bytes an element): its pieces would take as many bytes as the element (16)

template <class T>
__global__ void k_template(int n, const int *__restrict__ b, const T *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]].x;
}
template __global__ void k_template<Body>(int, const int *__restrict__, const Body *__restrict__, float *__restrict__);
// CHECK: remark: 'a' is copied whole (16 bytes an element): kernel templates keep whole elements

__global__ void k_float4(int n, const int *__restrict__ b, const float4 *__restrict__ a, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[b[t]].x;
}
// CODE-LABEL: __global__ void k_float4_irregfix(int n, const int *__restrict__ b, const float4 *__restrict__ a, float *__restrict__ out, irregfix::View __irregfix_v0, const float4 *__restrict__ __irregfix_v0_a, const unsigned __irregfix_block_offset) {
// CODE: irregfix::prepare_gather(__irregfix_site_k_float4_0, b, irregfix::index_kind(b), (long long)(n), a, sizeof(*a), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
