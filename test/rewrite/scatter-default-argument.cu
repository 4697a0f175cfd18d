// A scatter kernel with a default argument: its variant, which takes the
// contributions last, has none (the launcher passes every argument).
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s

#include <cuda_runtime.h>

__global__ void histogram(int n, const unsigned *bin, int *counts = nullptr) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicAdd(&counts[bin[t]], 1);
}

void run(int n, const unsigned *bin, int *counts) { histogram<<<64, 256>>>(n, bin, counts); }
// CHECK: __global__ void histogram(int n, const unsigned *bin, int *counts = nullptr) {
// CHECK: __global__ void histogram_irregfix(int n, const unsigned *bin, int *counts, int *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots) {
