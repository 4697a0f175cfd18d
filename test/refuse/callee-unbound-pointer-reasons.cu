// A called function's pointer parameter that the calls bind to no kernel
// array: its remark says what the call passes instead. Scratch memory the
// function writes is a hazard whatever it points to; otherwise the argument is
// named (either of two pointers into different arrays), and a binding given up
// because another call of a function on the way binds its pointers differently
// names that function. A pointer declared without a value and given the
// kernel's array later is that array, as an initialised one is; a pointer the
// function moves itself reads the array it is bound to, at offsets the
// function computes. Nothing is rewritten; the output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

// A per-thread scratch buffer the function both fills and reads back.
__device__ void smooth(const int *from, float *scratch, int width, int t) {
  for (int i = 0; i < width; ++i)
    scratch[width + i] = 0.5f * scratch[from[t] + i];
}
__global__ void smooth_all(const int *from, float *const *buffers, float *out, int width, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float *scratch = buffers[t];
  smooth(from, scratch, width, t);
  out[t] = scratch[width];
}
// CHECK-DAG: remark: indirect read of 'scratch' in 'smooth_all' (in 'smooth') not rewritten: 'scratch' of 'smooth' is written in the kernel: 'smooth' writes it (the call passes 'scratch')

// The pointer is declared first and given its array in a later statement: it
// is that array (the read is refused for where it is, not for what it reads).
__device__ float shifted(const float *v, const int *at, int t) { return v[at[t] + 1]; }
__global__ void set_later(const float *x, const int *at, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *v;
  v = x;
  if (t < n)
    out[t] = shifted(v, at, t);
}
// CHECK-DAG: remark: indirect read of 'v' in 'set_later' (in 'shifted') not rewritten: it is in 'shifted', a function the kernel calls, where only range and gather sites are rewritten

// Which array is read depends on a condition of the kernel's, through two calls.
__device__ float inner(const float *v, const int *at, int t) { return v[at[t] + 2]; }
__device__ float outer(const float *u, const int *at, int t) { return inner(u, at, t); }
__global__ void chosen(const float *x, const float *y, const int *at, float *out, int n, int odd) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *pick = odd ? x : y;
  if (t < n)
    out[t] = outer(pick, at, t);
}
// CHECK-DAG: remark: indirect read of 'v' in 'chosen' (in 'inner') not rewritten: 'v' of 'inner' is not an array the kernel passes unchanged (the call passes 'u'): 'pick' is either of two pointers, given 'x' and 'y', which point into different memory

// A function the kernel calls with its array and, through another function,
// with the thread's own array: what 'v' points into differs between its calls.
__device__ float at_leaf(const float *v, const int *at, int t) { return v[at[t] + 3]; }
__device__ float from_own(const int *at, int t) {
  float own[4] = {0.f, 1.f, 2.f, 3.f};
  return at_leaf(own, at, t);
}
__global__ void tree(const float *x, const int *at, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = at_leaf(x + 4, at, t) + from_own(at, t);
}
// CHECK-DAG: remark: indirect read of 'v' in 'tree' (in 'at_leaf') not rewritten: 'v' of 'at_leaf' is not an array the kernel passes unchanged (the call passes 'x + 4'): 'at_leaf' is called elsewhere with pointers not bound alike (what a parameter points into is followed only where every call binds it alike)
// The function steps its own pointer: it reads the kernel's array, at offsets
// the function computes as it steps.
__device__ int pairs(const int *p, const int *at, int t, int steps) {
  int s = 0;
  for (int k = 0; k < steps; ++k) {
    s += p[at[t] + k];
    p += 2;
  }
  return s;
}
__global__ void stepped(const int *x, const int *at, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pairs(x, at, t, 4);
}
// CHECK-DAG: remark: indirect read of 'p' in 'stepped' (in 'pairs') not rewritten: it reads 'x' through 'p', a parameter 'pairs' steps (its offset is not followed)
// CHECK-NOT: transformed

void run(const int *from, float *const *buffers, const float *x, const float *y, const int *at, float *out,
         int *iout, int width, int n) {
  stepped<<<(n + 127) / 128, 128>>>(from, at, iout, n);
  smooth_all<<<(n + 127) / 128, 128>>>(from, buffers, out, width, n);
  set_later<<<(n + 127) / 128, 128>>>(x, at, out, n);
  chosen<<<(n + 127) / 128, 128>>>(x, y, at, out, n, 1);
  tree<<<(n + 127) / 128, 128>>>(x, at, out, n);
}
