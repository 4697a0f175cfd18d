// A site irregfix must leave alone: its offsets are 'short', an index type
// the runtime does not read (it reads 32- and 64-bit integers).
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void k(int n, const short *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: range site in 'k' not transformed: 'B' holds 'short' indices; the runtime reads 32- and 64-bit integer indices (int, long, long long, signed or unsigned)
