// A kernel template with an explicit specialization is left alone: a launch of
// k<float> runs the specialization's own body, which a launcher for the
// template's body would replace with other code.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

template <class T>
__global__ void k(int n, const int *B, const T *A, T *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[t]];
}

template <>
__global__ void k<float>(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = 2.0f * A[B[t]];
}

void run(int n, const int *B, const double *Ad, double *yd, const float *Af, float *yf) {
  k<double><<<(n + 255) / 256, 256>>>(n, B, Ad, yd);
  k<float><<<(n + 255) / 256, 256>>>(n, B, Af, yf);
}
// CHECK: remark: {{.*}} not transformed: the kernel template has explicit specializations, whose launches run their own bodies
// RUN: %irregfix --report %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: read kernel=k array=A index="B[t]" pattern=gather verdict=not-rewritten reason="the kernel template has explicit specializations
