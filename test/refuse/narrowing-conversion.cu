// An index converted to char or short is not the thread's own index once the
// grid has more threads than the type holds (thread 256 reads B[0] through an
// unsigned char). Such a site is left as written: a copy laid out by the
// thread index would give thread 256 the element of B[256]. A constant
// converted the same way is read as the conversion leaves it. Nothing else
// changes; the output is the input where nothing is rewritten.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: grep -q '^__global__ void through_int_irregfix(' %t.out
// RUN: not grep -E '(through_char|short_local|short_rows|through_callee)_irregfix\(' %t.out

#include <cuda_runtime.h>

__global__ void through_char(int n, const float *A, const int *B, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = A[B[(unsigned char)t]];
}
// CHECK-DAG: remark: gather site in 'through_char' not transformed: the index of 'B' is not the 1-D global thread index

__global__ void short_local(int n, const float *A, const int *B, float *out) {
  short s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < n)
    out[s] = A[B[s]];
}
// CHECK-DAG: remark: gather site in 'short_local' not transformed: the index of 'B' is not the 1-D global thread index

__global__ void short_rows(int n, const int *row, const float *val, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    for (int k = row[(short)t]; k < row[(short)t + 1]; ++k)
      s += val[k];
    out[t] = s;
  }
}
// CHECK-DAG: remark: {{.*}}'short_rows'{{.*}}not {{transformed|rewritten}}

// A called function's parameter of type unsigned char, given the thread index.
__device__ float pick(const float *A, const int *B, unsigned char i) { return A[B[i]]; }
__global__ void through_callee(int n, const float *A, const int *B, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pick(A, B, t);
}
// CHECK-DAG: remark: gather site in 'through_callee' not transformed: the index of 'B', 'i', is not the kernel's thread index

// The same reads through the thread's own index are rewritten.
__global__ void through_int(int n, const float *A, const int *B, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = A[B[(long long)t]];
}
// CHECK-DAG: remark: gather site in 'through_int' transformed

void run(int n, const float *A, const int *B, const int *row, float *out) {
  through_char<<<(n + 255) / 256, 256>>>(n, A, B, out);
  short_local<<<(n + 255) / 256, 256>>>(n, A, B, out);
  short_rows<<<(n + 255) / 256, 256>>>(n, row, A, out);
  through_callee<<<(n + 255) / 256, 256>>>(n, A, B, out);
  through_int<<<(n + 255) / 256, 256>>>(n, A, B, out);
}
