// A kernel that declares a pointer without a value and gives it its array in
// a later statement (once, or in each branch of an if, the same array) passes
// that array to the function it calls, as an initialised pointer would: the
// gather in the function is rewritten over the kernel's array. Where the
// branches give it different arrays, it is neither, and nothing is rewritten.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__device__ float fetch(const float *v, const int *idx, int t) { return v[idx[t]]; }
__device__ float fetch2(const float *v, const int *idx, int t) { return v[idx[t]]; }

__global__ void later(const float *x, const int *idx, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *v;
  v = x;
  if (t < n)
    out[t] = fetch(v, idx, t);
}
// CHECK: __device__ float fetch_irregfix_later(const float *v, const int *idx, int t, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_x) { return __irregfix_v0_x[irregfix::gather_slot(__irregfix_v0, t)]; }
// CHECK: out[t] = fetch_irregfix_later(v, idx, t, __irregfix_v0, __irregfix_v0_x);
// CHECK: irregfix::prepare_gather(__irregfix_site_later_0, idx, irregfix::index_kind(idx), (long long)(n), x, sizeof(*x),
// WHY-DAG: remark: gather site in 'later' transformed: 'x' read through a coalesced copy indexed by 'idx'

__global__ void unlike(const float *x, const float *y, const int *idx, float *out, int n, int odd) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *v;
  if (odd)
    v = x;
  else
    v = y;
  if (t < n)
    out[t] = fetch2(v, idx, t);
}
// WHY-DAG: remark: gather site in 'unlike' not transformed: 'v' of 'fetch2' is not an array the kernel passes unchanged (the call passes 'v'): 'v' is a local pointer declared without a value, given 'x' and 'y', which point into different memory
// WHY-NOT: gather site in 'unlike' transformed

void run(const float *x, const float *y, const int *idx, float *out, int n) {
  later<<<(n + 127) / 128, 128>>>(x, idx, out, n);
  unlike<<<(n + 127) / 128, 128>>>(x, y, idx, out, n, 1);
}
