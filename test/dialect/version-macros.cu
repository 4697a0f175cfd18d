// nvcc predefines its version; programs pick code paths by it. The tool
// predefines the same three macros for the toolkit it parses with, and they
// agree with that toolkit's CUDA_VERSION.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
#include <cuda_runtime.h>

#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) || !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are missing"
#endif
#if __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDA_VERSION
#error "nvcc's version macros disagree with the toolkit"
#endif

#if __CUDACC_VER_MAJOR__ >= 12
#define SCALE 2.0f
#endif

__global__ void scaled(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = SCALE * table[slot[t]];
}

void run(int n, const int *slot, const float *table, float *out) {
  scaled<<<(n + 127) / 128, 128>>>(n, slot, table, out);
}
// CHECK: scaled_irregfix_launch(
