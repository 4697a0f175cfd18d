// irregfix-indirect-read.OnlyRefused: only the reads irregfix leaves as they
// are; without it, every read.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet \
// RUN:   --config="{CheckOptions: {irregfix-indirect-read.OnlyRefused: true}}" %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFUSED -implicit-check-not="{{warning|error}}:"
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALL -implicit-check-not="{{warning|error}}:"

#include <cuda_runtime.h>

__global__ void gather(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[t]];
  // ALL: only-refused.cu:[[@LINE-1]]:12: warning: {{.*}} irregfix can rewrite it
}

__global__ void scatter_in_place(int n, const int *B, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    A[t] = A[B[t]] + 1;
  // REFUSED: only-refused.cu:[[@LINE-1]]:12: warning: {{.*}} irregfix cannot rewrite it (pattern gather): 'A' is written in the kernel
  // ALL: only-refused.cu:[[@LINE-2]]:12: warning: {{.*}} irregfix cannot rewrite it (pattern gather): 'A' is written in the kernel
}
