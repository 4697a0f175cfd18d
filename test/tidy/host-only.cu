// Host code only: its indirect reads are not irregfix's, so no warning at all.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 | count 0

#include <cuda_runtime.h>

float host_gather(int n, const int *B, const float *A) {
  float s = 0;
  for (int t = 0; t < n; ++t)
    s += A[B[t]];
  return s;
}
