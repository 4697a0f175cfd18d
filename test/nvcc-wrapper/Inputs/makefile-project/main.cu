#include "rowsum.h"
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  const int rows = 3;
  const int offsets[] = {0, 2, 2, 5};
  const float values[] = {1, 2, 3, 4, 5};
  int *d_offsets;
  float *d_values, *d_sums;
  cudaMalloc(&d_offsets, sizeof offsets);
  cudaMalloc(&d_values, sizeof values);
  cudaMalloc(&d_sums, rows * sizeof(float));
  cudaMemcpy(d_offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice);
  row_sums(rows, d_offsets, d_values, d_sums);
  float sums[rows];
  cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
  std::printf("%g %g %g\n", sums[0], sums[1], sums[2]);
  return 0;
}
