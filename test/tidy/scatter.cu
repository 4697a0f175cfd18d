// An update through an index array (a scatter site): the element it adds to
// gets the update's verdict, and the kernel's gather stays as it is.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s -implicit-check-not="{{warning|error}}:"

#include <cuda_runtime.h>

__global__ void spmv_t(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz)
    atomicAdd(&y[col[k]], val[k] * x[row[k]]);
  // CHECK: scatter.cu:[[@LINE-1]]:16: warning: indirect read of 'y' in kernel 'spmv_t': irregfix can rewrite its update into an inspector-executor (pattern scatter) [irregfix-indirect-read]
  // CHECK: scatter.cu:[[@LINE-2]]:36: warning: indirect read of 'x' in kernel 'spmv_t': irregfix cannot rewrite it (pattern gather): the kernel's update of 'y' is rewritten instead (scatter: an inspector-executor), which reads its arrays in place [irregfix-indirect-read]
}

__global__ void twice(int n, const int *f, const float *w, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    A[f[t]] += w[t];
    // CHECK: scatter.cu:[[@LINE-1]]:5: warning: indirect read of 'A' in kernel 'twice': irregfix can rewrite its update into an inspector-executor (pattern scatter) [irregfix-indirect-read]
    A[f[t]] += 2.0f * w[t];
    // CHECK: scatter.cu:[[@LINE-1]]:5: warning: indirect read of 'A' in kernel 'twice': irregfix can rewrite its update into an inspector-executor (pattern scatter) [irregfix-indirect-read]
  }
}

__global__ void two_arrays(int n, const int *f, const float *w, float *A, float *B) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    A[f[t]] += w[t];
    // CHECK: scatter.cu:[[@LINE-1]]:5: warning: indirect read of 'A' in kernel 'two_arrays': irregfix cannot rewrite it (pattern scatter): the kernel updates both 'A' and 'B' through index arrays (one updated array is supported) [irregfix-indirect-read]
    B[f[t]] += w[t];
    // CHECK: scatter.cu:[[@LINE-1]]:5: warning: indirect read of 'B' in kernel 'two_arrays': irregfix cannot rewrite it (pattern scatter): the kernel updates both 'A' and 'B' through index arrays (one updated array is supported) [irregfix-indirect-read]
  }
}
