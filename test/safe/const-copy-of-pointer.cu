// Looks like something irregfix must refuse, but is safe and is rewritten: the arrays are read through unwritten local copies of the parameters.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(int n, const int *rows, const float *vals, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int *B = rows;
  const float *A = vals;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: s += __irregfix_v0_vals[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
// MSG: remark: range site in 'k' transformed
