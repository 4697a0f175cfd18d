// Looks like something irregfix must refuse, but is safe and is rewritten: the loop body breaks and returns: the in-kernel loop keeps its body.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (A[k] < 0.f) { y[t] = -1.f; return; }
      if (s > 1e6f) break;
      s += A[k];
    }
    y[t] = s;
  }
}
// CHECK: if (__irregfix_v0_A[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)] < 0.f) { y[t] = -1.f; return; }
// MSG: remark: range site in 'k' transformed
