// A read irregfix must leave alone: the warning gives the analysis' reason.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s -implicit-check-not="{{warning|error}}:"

#include <cuda_runtime.h>

__global__ void scatter_in_place(int n, const int *B, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    A[t] = A[B[t]] + 1;
  // CHECK: refused.cu:[[@LINE-1]]:12: warning: indirect read of 'A' in kernel 'scatter_in_place': irregfix cannot rewrite it (pattern gather): 'A' is written in the kernel [irregfix-indirect-read]
}
