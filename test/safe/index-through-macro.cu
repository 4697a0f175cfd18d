// Looks like something irregfix must refuse, but is safe and is rewritten: the row index is spelled through a macro; the loop and the reads are not.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
#define ROW(i) (i)
__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[ROW(t)]; k < B[ROW(t) + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0) s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
// MSG: remark: range site in 'k' transformed
