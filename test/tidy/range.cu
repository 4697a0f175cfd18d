// A CSR range loop irregfix can rewrite: each read of the loop gets its verdict
// ('x' is read in place, at an index from the copy of 'col', or through a copy renumbered like it).
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s -implicit-check-not="{{warning|error}}:"

#include <cuda_runtime.h>

__global__ void spmv(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    // CHECK: range.cu:[[@LINE-1]]:14: warning: indirect read of 'val' in kernel 'spmv': irregfix can rewrite it into a coalesced copy (pattern range) [irregfix-indirect-read]
    // CHECK: range.cu:[[@LINE-2]]:23: warning: indirect read of 'x' in kernel 'spmv': irregfix can rewrite only its index (pattern gather in a loop): its index comes from a coalesced copy; x itself is read in place, or in the locality order through a copy renumbered like col [irregfix-indirect-read]
    // CHECK: range.cu:[[@LINE-3]]:25: warning: indirect read of 'col' in kernel 'spmv': irregfix can rewrite it into a coalesced copy (pattern range) [irregfix-indirect-read]
    y[row] = sum;
  }
}
