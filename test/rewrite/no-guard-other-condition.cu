// A condition on the thread index that is not a guard the tool reads
// (t + 1 < n) keeps threads from the read: the gather is not widened to the
// launch's threads. The indexed strategy takes the read instead, every index
// checked.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed "s,// CHECK.*,," %t.out | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void shifted(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t + 1 < n)
    y[t] = A[B[t]];
}
// WHY: remark: indexed site in 'shifted' transformed: 'A' at 'B[t]' read through coalesced copies
// CHECK-NOT: prepare_gather(
// CHECK: __irregfix_s.n = (long long)__irregfix_grid.x * __irregfix_block.x;
// CHECK-NOT: prepare_gather(
