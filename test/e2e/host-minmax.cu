// Host code calls min and max with the argument types nvcc's headers accept on
// the host (min(unsigned, int), max(long, unsigned long), ...), which Clang's
// CUDA headers declare for the device only: the tool parses such a file (its
// stub header irregfix_host_minmax.h declares them for the host), rewrites it,
// and the output compiles with nvcc.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]] * min(t, 4);
}

void run(unsigned n, long m, const int *idx, const float *a, float *out) {
  dim3 block(64, 4);
  unsigned grid = min((n + block.x - 1) / block.x, 4096);
  unsigned long wide = max(m, 1ul);
  float f = min(1.0f, 2.0);
  gather<<<grid, 64>>>(n, idx, a, out);
  (void)wide;
  (void)f;
}

// CHECK: unsigned grid = min((n + block.x - 1) / block.x, 4096);
// CHECK: gather_irregfix_launch(grid, 64, 0, 0, n, idx, a, out);
