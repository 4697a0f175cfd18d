// Looks like something irregfix must refuse, but is safe and is rewritten: the kernel writes a local array and a scalar, not device memory it reads.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float last[4] = {0, 0, 0, 0};
    int c = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) last[c++ % 4] = A[k];
    y[t] = last[0] + last[1] + last[2] + last[3];
  }
}
// CHECK: for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0) last[c++ % 4] = __irregfix_v0_A[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
// MSG: remark: range site in 'k' transformed
