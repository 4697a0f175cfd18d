// A site irregfix must leave alone: the array is a struct field the kernel writes.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Mesh { int n; const int *offsets; float *values; };

__global__ void k(Mesh m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m.n) {
    for (int e = m.offsets[t]; e < m.offsets[t + 1]; ++e)
      m.values[e] *= 0.5f;
  }
}
// CHECK: remark: range site in 'k' not transformed: 'm.values' is written in the kernel
