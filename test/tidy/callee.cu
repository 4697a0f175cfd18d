// Reads in functions the kernels call: the check warns from the same verdicts
// as the tool, so a loop the tool rewrites in the function's copy is named as
// rewritable, at the read inside the function, and a refused one says why.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s -implicit-check-not="{{warning|error}}:"

#include <cuda_runtime.h>

__device__ float row_dot(const int *rowptr, const int *col, const float *val, int row) {
  float s = 0.0f;
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
    s += val[k];
  // CHECK: callee.cu:[[@LINE-1]]:10: warning: indirect read of 'val' in kernel 'spmv': irregfix can rewrite it into a coalesced copy (pattern range) [irregfix-indirect-read]
  return s;
}

__global__ void spmv(int n, const int *rowptr, const int *col, const float *val, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n)
    y[row] = row_dot(rowptr, col, val, row);
}

__device__ float pick(const float *a, const int *idx, int i) { return a[idx[i]]; }
// CHECK: callee.cu:[[@LINE-1]]:71: warning: indirect read of 'a' in kernel 'shifted': irregfix cannot rewrite it (pattern gather): 'a' of 'pick' points into 'a' at an offset (the call passes 'a + t') that is not computable from the kernel's arguments (a view's offset is computed at the launch) [irregfix-indirect-read]

__global__ void shifted(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pick(a + t, idx, t);
}
