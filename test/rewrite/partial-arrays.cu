// One array of a range site is written by the kernel: it stays as it was, the
// other is remapped; the loop variable is rebound because A[k] still needs it.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err

#include <cuda_runtime.h>

__global__ void relax(int n, const int *B, float *A, const float *W) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    for (int k = B[t]; k < B[t + 1]; ++k)
      A[k] = A[k] * W[k];
  }
}
// CHECK:      for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:   { const int k = static_cast<int>(B[t] + __irregfix_iter0); A[k] = A[k] * __irregfix_v0_W[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)]; }
// CHECK:      if (irregfix::begin_launch(__irregfix_site_relax_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:          irregfix::disjoint(__irregfix_site_relax_0, A, B) &&
// CHECK-NEXT: irregfix::disjoint(__irregfix_site_relax_0, A, W) &&

// MSG: partial-arrays.cu:11:5: remark: range site in 'relax' transformed: 'W' read through a coalesced copy indexed by 'B'
// MSG: partial-arrays.cu:12:14: note: 'A' is left as is: 'A' is written in the kernel
// MSG: partial-arrays.cu:8:51: note: 'A' is written and may alias 'B', 'W': checked at each launch
