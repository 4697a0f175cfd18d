// A local pointer with an offset (`a = A + 1`) reads other elements than A[k]:
// the range site, whose copy holds A[k], does not take a[k]; an indexed site
// reads A at 1 + k, the offset added in its index kernel. An exact copy
// (`b = B0`) is followed.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:" --check-prefix=WHY
// RUN: FileCheck %s --input-file=%t.out

#include <cuda_runtime.h>

__global__ void k(int n, const int *B0, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int *B = B0;
  const float *a = A + 1;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += a[k];
    y[t] = s;
  }
}
// WHY: remark: indexed site in 'k' transformed: 'A' at '1 + k' read through coalesced copies over the loop's iterations
// WHY: note: 'y' is written and may alias 'B0', 'A'
// WHY: remark: threads of 'k' keep their order
// WHY: remark: launches of 'k' run whole
// CHECK: const long long __irregfix_i = (long long)((long long)(1) + (long long)(((int)(__irregfix_first + __irregfix_iter))));
