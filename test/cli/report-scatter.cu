// --report lists scatter sites (irregular reductions) with their verdict and
// reason; --report=json gives the element each update adds to the update's verdict.
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s
// RUN: %irregfix --quiet --report=json %s -- %stub | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>
__global__ void scatter(int n, const int *f, const float *w, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) atomicAdd(&A[f[t]], w[t]);
}
__global__ void twice(int n, const int *f, const float *w, float *A, float *B) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) { A[f[t]] += w[t]; B[f[t]] += w[t]; }
}
// CHECK: report-scatter.cu:8:14: kernel=scatter pattern=scatter offsets=f arrays=A verdict=transformed threads=in-order launch=whole alias-checks=A/f,A/w
// CHECK: report-scatter.cu:12:16: kernel=twice pattern=scatter offsets=- arrays=- verdict=refused reason="the kernel updates both 'A' and 'B' through index arrays (one updated array is supported)"
// CHECK: report-scatter.cu:12:33: kernel=twice pattern=scatter offsets=- arrays=- verdict=refused reason="the kernel updates both 'A' and 'B' through index arrays (one updated array is supported)"
// JSON: "line": 8, "column": 25, "kernel": "scatter", "function": "", "array": "A", "index": "f[t]", "pattern": "scatter", "verdict": "rewritten"
// JSON: "line": 12, "column": 16, "kernel": "twice", "function": "", "array": "A", "index": "f[t]", "pattern": "scatter", "verdict": "not-rewritten", "reason": "the kernel updates both 'A' and 'B' through index arrays (one updated array is supported)"
