// A gather irregfix can rewrite: the warning names the pattern and says so.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s -implicit-check-not="{{warning|error}}:"

#include <cuda_runtime.h>

__global__ void gather(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[t]];
  // CHECK: gather.cu:[[@LINE-1]]:12: warning: indirect read of 'A' in kernel 'gather': irregfix can rewrite it into a coalesced copy (pattern gather) [irregfix-indirect-read]
}
