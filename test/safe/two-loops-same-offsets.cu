// Looks like something irregfix must refuse, but is safe and is rewritten: two loops over the same rows: two sites, two views.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(int n, const int *B, const float *A, const float *W, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0, m = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    for (int k = B[t]; k < B[t + 1]; ++k) m = fmaxf(m, W[k]);
    y[t] = s * m;
  }
}

// CHECK: for (int __irregfix_iter1 = 0, __irregfix_len1 = irregfix::length(__irregfix_v1, t); __irregfix_iter1 < __irregfix_len1; ++__irregfix_iter1) m = fmaxf(m, __irregfix_v1_W[irregfix::slot(__irregfix_v1, t, __irregfix_iter1)]);
// MSG: remark: range site in 'k' transformed
