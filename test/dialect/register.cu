// `register` in C++17: nvcc warns and compiles, Clang refuses by default. The
// tool accepts it as nvcc does and rewrites the kernel around it, keeping the
// keyword as written.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.cu
#include <cuda_runtime.h>

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  register int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = table[slot[t]];
}

void run(int n, const int *slot, const float *table, float *out) {
  register int blocks = (n + 127) / 128;
  lookup<<<blocks, 128>>>(n, slot, table, out);
}
// CHECK: register int blocks = (n + 127) / 128;
// CHECK: lookup_irregfix_launch(blocks, 128, 0, 0, n, slot, table, out);
