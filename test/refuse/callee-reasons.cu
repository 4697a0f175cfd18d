// Reads in called functions that irregfix must leave alone, each with its
// reason: every rule of a site in the kernel holds through the call (arrays
// the kernel passes unchanged and does not write, the kernel's thread index,
// the kernel's guard at the call), and the function must be one a copy can be
// written of beside the kernel (called once, not recursive, defined before the
// kernel in its scope, not a template's). The output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__device__ float twice(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:72: remark: gather site in 'called_twice' not transformed: 'twice' is called at 2 places in the kernel and the functions it calls (sites in a called function are rewritten where it is called once)
__global__ void called_twice(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = twice(a, idx, t) + twice(a, idx, t);
}

__device__ float shifted(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:74: remark: gather site in 'offset_array' not transformed: 'a' of 'shifted' points into 'a' at an offset (the call passes 'a + t') that is not computable from the kernel's arguments (a view's offset is computed at the launch)
__global__ void offset_array(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = shifted(a + t, idx, t);
}

__device__ float strided(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:74: remark: gather site in 'other_index' not transformed: the index of 'idx', 'i', is not the kernel's thread index (the call passes '2 * t')
__global__ void other_index(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * t < n)
    out[t] = strided(a, idx, 2 * t);
}

__device__ float source(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:73: remark: gather site in 'writes_source' not transformed: 'a' is written in the kernel
__global__ void writes_source(int n, float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = source(a, idx, t);
    a[t] = 0.0f;
  }
}

__device__ float guarded(const float *a, const int *idx, int i, int n) { return i < n ? a[idx[i]] : 0.0f; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:89: remark: gather site in 'guard_in_callee' not transformed: no guard 'if (t < n)' or 'if (t >= n) return' bounds the thread index where the kernel calls 'guarded'
__global__ void guard_in_callee(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = guarded(a, idx, t, n);
}

__device__ float later(const float *a, const int *idx, int i);
__global__ void defined_after(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = later(a, idx, t);
}
__device__ float later(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:72: remark: gather site in 'defined_after' not transformed: 'later' is defined after the kernel

namespace detail {
__device__ float scoped(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:73: remark: gather site in 'other_scope' not transformed: 'scoped' is declared in another scope than the kernel
} // namespace detail
__global__ void other_scope(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = detail::scoped(a, idx, t);
}

template <typename T>
__device__ T generic(const T *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:66: remark: gather site in 'calls_template' not transformed: 'generic' is a function template
__global__ void calls_template(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = generic(a, idx, t);
}

__device__ float plain(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:72: remark: gather site in 'templated' not transformed: the kernel is a template (sites in called functions are rewritten in plain kernels)
template <typename T>
__global__ void templated(int n, const float *a, const int *idx, T *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = plain(a, idx, t);
}
template __global__ void templated<float>(int, const float *, const int *, float *);

__device__ float neighbours(const float *pos, const int *list, int m, int t, int n) {
  float s = 0.0f;
  for (int j = 0; j < m; ++j)
    s += pos[list[j * n + t]];
// CHECK: callee-reasons.cu:[[@LINE-1]]:10: remark: neighbors site in 'neighbour_loop' not transformed: neighbour-list loops in a function the kernel calls are not rewritten
  return s;
}
__global__ void neighbour_loop(int n, int m, const float *pos, const int *list, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = neighbours(pos, list, m, t, n);
}

// A function that calls itself: the kernel's write set cannot be traced, and
// the launches that follow drop the cache.
__device__ float walk(const float *a, const int *idx, int i, int d) { return d ? walk(a, idx, i, d - 1) : a[idx[i]]; }
// CHECK: callee-reasons.cu:[[@LINE-1]]:107: remark: gather site in 'recursive' not transformed: the kernel may write memory the analysis cannot name: it calls 'walk' recursively
__global__ void recursive(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = walk(a, idx, t, 2);
}

// A function without a body here (defined in another translation unit): its
// reads cannot be seen, and the kernel's own gather is refused because the
// function may write anything.
__device__ float elsewhere(const float *a, int i);
__global__ void opaque(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]] + elsewhere(a, t);
// CHECK: callee-reasons.cu:[[@LINE-1]]:14: remark: gather site in 'opaque' not transformed: the kernel may write memory the analysis cannot name: it calls 'elsewhere', whose body the analysis cannot see
}

void run(int n, const float *a, const int *idx, float *out, float *w) {
  called_twice<<<n / 128 + 1, 128>>>(n, a, idx, out);
  offset_array<<<n / 128 + 1, 128>>>(n, a, idx, out);
  other_index<<<n / 128 + 1, 128>>>(n, a, idx, out);
  writes_source<<<n / 128 + 1, 128>>>(n, w, idx, out);
  guard_in_callee<<<n / 128 + 1, 128>>>(n, a, idx, out);
  defined_after<<<n / 128 + 1, 128>>>(n, a, idx, out);
  other_scope<<<n / 128 + 1, 128>>>(n, a, idx, out);
  calls_template<<<n / 128 + 1, 128>>>(n, a, idx, out);
  neighbour_loop<<<n / 128 + 1, 128>>>(n, 4, a, idx, out);
  recursive<<<n / 128 + 1, 128>>>(n, a, idx, out);
  opaque<<<n / 128 + 1, 128>>>(n, a, idx, out);
}
