// A program that times or splits its host work with OpenMP includes <omp.h>,
// which nvcc's host compiler finds in its own include directory. The tool finds
// the host compiler's omp.h too (after every other include directory) and
// rewrites the file.
// REQUIRES: nvcc, host-omp-header
// RUN: %irregfix_real --quiet %s -o %t.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.cu
#include <omp.h>
#include <cuda_runtime.h>

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = table[slot[t]];
}

double run(int n, const int *slot, const float *table, float *out) {
  double start = omp_get_wtime();
  lookup<<<(n + 127) / 128, 128>>>(n, slot, table, out);
  cudaDeviceSynchronize();
  return omp_get_wtime() - start;
}
// CHECK: #include <omp.h>
// CHECK: lookup_irregfix_launch(
