// A table staged in shared memory and read through an index array is already
// on the chip. A __shared__ array read directly is no indirect read of device
// memory at all; read through local pointers into an extern shared buffer
// (one table after another, as force fields lay out their per-type
// constants), the remark says it is shared memory rather than naming an
// array the launch cannot name.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void by_kind(const int *kind, const float *weights, float *out, int n) {
  __shared__ float table[64];
  if (threadIdx.x < 64)
    table[threadIdx.x] = weights[threadIdx.x];
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = table[kind[t]];
}
// CHECK-NOT: 'by_kind'

struct Bond {
  int from, kind;
};

__global__ void two_tables(const Bond *bonds, const float *lengths_in, const float *stiffness_in, float *energy,
                           int kinds, int n) {
  extern __shared__ float staged[];
  float *lengths = &staged[0];
  float *stiffness = staged + kinds;
  for (int i = threadIdx.x; i < kinds; i += blockDim.x) {
    lengths[i] = lengths_in[i];
    stiffness[i] = stiffness_in[i];
  }
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int k = bonds[t].kind;
    energy[t] = stiffness[k] * lengths[k];
  }
}
// CHECK: remark: indirect read of 'stiffness' in 'two_tables' not rewritten: it reads shared memory ('stiffness'), which is on the chip: there is nothing to coalesce
// CHECK: remark: indirect read of 'lengths' in 'two_tables' not rewritten: it reads shared memory ('lengths'), which is on the chip: there is nothing to coalesce
