// --report lists every site with its verdict and reason, one line each; a
// transformed site says whether its kernel's threads may be permuted and its
// launch run in chunks.
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s
#include <cuda_runtime.h>
__global__ void good(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) { float s = 0; for (int k = B[t]; k < B[t + 1]; ++k) s += A[k]; y[t] = s; }
}
__global__ void bad(int n, const int *B, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) A[t] = A[B[t]];
}
// CHECK: report.cu:8:29: kernel=good pattern=range offsets=B arrays=A verdict=transformed threads=permutable launch=chunked alias-checks=y/B,y/A
// CHECK: report.cu:12:21: kernel=bad pattern=gather offsets=B arrays=- verdict=refused reason="'A' is written in the kernel"
