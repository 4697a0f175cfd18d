// A kernel with a gather of its own and three sites in called functions: one
// in 'outer', one in 'inner' which 'outer' calls, one loop in 'row'. Each copy
// takes the parameters of every site it reaches, in the sites' order, and each
// call passes the same names on. Asked to hoist (--hoist), the kernel keeps its
// loops: it has several sites, and a loop in a called function is never hoisted.
// RUN: %irregfix --hoist %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
// RUN: %irregfix --hoist=single %s -- %stub 2>&1 >/dev/null | FileCheck %s --check-prefix=SINGLE

#include <cuda_runtime.h>

__device__ float inner(const float *b, const int *jdx, int i) { return b[jdx[i]]; }
__device__ float outer(const float *a, const int *idx, const float *b, const int *jdx, int i) {
  return a[idx[i]] + inner(b, jdx, i);
}
__device__ float row(const int *rp, const float *v, int r) {
  float s = 0.0f;
  for (int k = rp[r]; k < rp[r + 1]; ++k)
    s += v[k];
  return s;
}

__global__ void mixed(int n, const float *a, const int *idx, const float *b, const int *jdx, const int *rp,
                      const float *v, const float *c, const int *kdx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = outer(a, idx, b, jdx, t) + row(rp, v, t) + c[kdx[t]];
}
// CHECK-LABEL: __device__ float inner_irregfix_mixed(const float *b, const int *jdx, int i, irregfix::View __irregfix_v2, const float *__restrict__ __irregfix_v2_b) { return __irregfix_v2_b[irregfix::gather_slot(__irregfix_v2, i)]; }
// CHECK:       __device__ float outer_irregfix_mixed(const float *a, const int *idx, const float *b, const int *jdx, int i, irregfix::View __irregfix_v1, const float *__restrict__ __irregfix_v1_a, irregfix::View __irregfix_v2, const float *__restrict__ __irregfix_v2_b) {
// CHECK-NEXT:    return __irregfix_v1_a[irregfix::gather_slot(__irregfix_v1, i)] + inner_irregfix_mixed(b, jdx, i, __irregfix_v2, __irregfix_v2_b);
// CHECK:       __device__ float row_irregfix_mixed(const int *rp, const float *v, int r, irregfix::View __irregfix_v3, const float *__restrict__ __irregfix_v3_v) {
// CHECK:       __global__ void mixed_irregfix(int n, const float *a, const int *idx, const float *b, const int *jdx, const int *rp,
// CHECK-NEXT:                        const float *v, const float *c, const int *kdx, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_c, irregfix::View __irregfix_v1, const float *__restrict__ __irregfix_v1_a, irregfix::View __irregfix_v2, const float *__restrict__ __irregfix_v2_b, irregfix::View __irregfix_v3, const float *__restrict__ __irregfix_v3_v, const unsigned __irregfix_block_offset) {
// CHECK:           out[t] = outer_irregfix_mixed(a, idx, b, jdx, t, __irregfix_v1, __irregfix_v1_a, __irregfix_v2, __irregfix_v2_b) + row_irregfix_mixed(rp, v, t, __irregfix_v3, __irregfix_v3_v) + __irregfix_v0_c[irregfix::gather_slot(__irregfix_v0, t)];

// WHY: remark: loop of 'mixed' stays in the kernel (not hoisted): it has more than one transformed site

__global__ void single(int n, const int *rp, const float *v, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = row(rp, v, t);
}
// SINGLE: remark: loop of 'single' stays in the kernel (not hoisted): its site is in a function the kernel calls

void run(int n, const float *a, const int *idx, const float *b, const int *jdx, const int *rp, const float *v,
         float *out) {
  mixed<<<n / 128 + 1, 128>>>(n, a, idx, b, jdx, rp, v, a, idx, out);
  single<<<n / 128 + 1, 128>>>(n, rp, v, out);
}
