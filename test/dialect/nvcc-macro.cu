// A header written for nvcc and a host compiler both: without __NVCC__ it
// defines the CUDA keywords away, so a file the tool parsed as a host compiler
// would have no kernel. The tool predefines __NVCC__ as nvcc does, and finds
// and rewrites the kernel.
// REQUIRES: nvcc
// RUN: %irregfix_real %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.cu
#ifndef __NVCC__
#define __global__
#define __device__
#define __host__
#else
#include <cuda_runtime.h>
#endif

// nvcc's __CUDACC__ is 1, so that `#if __CUDACC__` holds.
#if __CUDACC__
#define ON_GPU 1
#else
#define ON_GPU 0
#endif

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (ON_GPU && t < n)
    out[t] = table[slot[t]];
}
// REMARK: nvcc-macro.cu:[[@LINE-2]]:14: remark: gather site in 'lookup' transformed

void run(int n, const int *slot, const float *table, float *out) {
  lookup<<<(n + 127) / 128, 128>>>(n, slot, table, out);
}
// CHECK: lookup_irregfix_launch((n + 127) / 128, 128, 0, 0, n, slot, table, out);
