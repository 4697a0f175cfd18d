// Launches in a host function template's text: rewritten once when every
// instantiation launches the same transformed kernel, left alone otherwise.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --input-file=%t.err

#include <cuda_runtime.h>

template <int Step>
__global__ void gather(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]] * Step;
}

__global__ void plain(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}

// The kernel's template argument comes from the host template's.
template <int Step> void step(int n, const int *B, const float *A, float *y) {
  gather<Step><<<(n + 127) / 128, 128>>>(n, B, A, y);
}

// The kernel is picked by the arguments' types: another in each instantiation.
__global__ void pick(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
__global__ void pick(int n, const int *B, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[t] + B[t];
}
template <class T> void either(int n, const int *B, const T *A, T *y) {
  pick<<<1, 32>>>(n, B, A, y);
  plain<<<1, 32>>>(n, B, (const float *)A, (float *)y);
}

void run(int n, const int *B, const float *A, float *y, const double *D, double *z) {
  step<1>(n, B, A, y);
  step<2>(n, B, A, y);
  either(n, B, A, y);
  either(n, B, D, z);
}
// CHECK: template <int Step> void step(int n, const int *B, const float *A, float *y) {
// CHECK: gather_irregfix_launch<Step>((n + 127) / 128, 128, 0, 0, n, B, A, y);
// CHECK: template <class T> void either(int n, const int *B, const T *A, T *y) {
// CHECK-NOT: _irregfix_launch
// CHECK: pick<<<1, 32>>>(n, B, A, y);
// CHECK: plain_irregfix_launch(1, 32, 0, 0, n, B, (const float *)A, (float *)y);
// WARN-NOT: warning:
