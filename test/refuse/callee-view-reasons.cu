// A called function's parameter that points into a kernel array at an offset
// is read as a view of the array only where the launch can compute the
// offset and nothing writes the array; otherwise its remark says which rule
// fails. The output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

// Each thread's own window: the offset is the thread's, known only in the kernel.
__device__ float windowed(const float *a, const int *idx, int i) { return a[idx[i]]; }
__global__ void per_thread(int n, const float *x, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = windowed(x + 4 * t, idx, t);
}
// CHECK-DAG: remark: gather site in 'per_thread' not transformed: 'a' of 'windowed' points into 'x' at an offset (the call passes 'x + 4 * t') that is not computable from the kernel's arguments (a view's offset is computed at the launch)

// The offset added one call further down, by a function between.
__device__ float inner(const float *a, const int *idx, int i) { return a[idx[i]]; }
__device__ float outer(const float *a, const int *idx, int i, int skip) { return inner(a + skip, idx, i); }
__global__ void two_deep(int n, int skip, const float *x, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = outer(x, idx, t, skip);
}
// CHECK-DAG: remark: gather site in 'two_deep' not transformed: 'a' of 'inner' points into 'x' at an offset (the call passes 'a + skip') that a function between the kernel and it adds (a view's offset is the kernel's call's)

// The kernel writes the array the view is of.
__device__ float old_value(const float *a, const int *idx, int i) { return a[idx[i]]; }
__global__ void overwrite(int n, int shift, float *x, const int *idx) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    x[t] = old_value(x + shift, idx, t);
}
// CHECK-DAG: remark: gather site in 'overwrite' not transformed: 'x' is written in the kernel: 'a' of 'old_value' points into it (the call passes 'x + shift')

void run(int n, const float *x, float *w, const int *idx, float *out) {
  per_thread<<<(n + 127) / 128, 128>>>(n, x, idx, out);
  two_deep<<<(n + 127) / 128, 128>>>(n, 3, x, idx, out);
  overwrite<<<(n + 127) / 128, 128>>>(n, 2, w, idx);
}
