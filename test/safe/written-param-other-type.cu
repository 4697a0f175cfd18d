// Looks like something irregfix must refuse, but is safe and is rewritten: the kernel writes an int array while reading floats: different types can still alias, so the launch checks it.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(int n, const int *B, const float *A, int *flags) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    flags[t] = s > 0.f;
  }
}
// CHECK: if (irregfix::begin_launch(__irregfix_site_k_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:     irregfix::disjoint(__irregfix_site_k_0, flags, B) &&
// MSG: remark: range site in 'k' transformed
